import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node } from "yaml";

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());
const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * The 1-based line of the YAML where a field the server names is (e.g. `trainerConfig.trainerClsPath`), or of
 * its nearest parent that is there when the field itself is missing. Keys match in camelCase or snake_case,
 * as the server reads both.
 */
export function lineOfField(text: string, path: string): number {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  let node = doc.contents as Node | null;
  let line = 1;
  for (const key of path.split(/[.[\]]+/).filter(Boolean)) {
    if (isMap(node)) {
      const pair = node.items.find(
        (p) =>
          (isScalar(p.key) && [key, snake(key)].includes(String(p.key.value))) ||
          (isScalar(p.key) && camel(String(p.key.value)) === key),
      );
      if (!pair || !isScalar(pair.key) || !pair.key.range) break;
      line = lines.linePos(pair.key.range[0]).line;
      node = pair.value as Node | null;
    } else if (isSeq(node) && /^\d+$/.test(key)) {
      const item = node.items[Number(key)] as Node | undefined;
      if (!item?.range) break;
      line = lines.linePos(item.range[0]).line;
      node = item;
    } else {
      break;
    }
  }
  return line;
}
