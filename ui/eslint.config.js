// ESLint for the dashboard: JavaScript's and typescript-eslint's recommended rules, and the Rules of React
// (eslint-plugin-react-hooks' recommended set: the hook rules and the React Compiler's checks). Formatting is
// Prettier's (.prettierrc), so no rule here is about layout.
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig([
  // The API types are generated from api/openapi.yaml (npm run generate).
  globalIgnores(["dist/", "test-results/", "src/api/schema.d.ts"]),
  {
    files: ["**/*.{ts,tsx}"],
    extends: [js.configs.recommended, tseslint.configs.recommended, reactHooks.configs.flat.recommended],
    languageOptions: { globals: globals.browser },
    rules: {
      // `_` names a parameter or element that is there only for its position.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The configs and the end-to-end tests run in Node.js; the tests' callbacks passed to the page run in it.
    files: ["**/*.{js,mjs}", "vite.config.ts"],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
  { files: ["e2e/**"], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
]);
