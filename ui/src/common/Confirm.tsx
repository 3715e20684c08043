import { useState, type ReactNode } from "react";

/**
 * A button that asks before it acts: the question opens in a modal dialog with Confirm and Keep buttons.
 */
export function ConfirmButton(props: {
  label: string;
  question: ReactNode;
  onConfirm: () => Promise<unknown> | void;
  disabled?: boolean;
  danger?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  async function confirm() {
    setBusy(true);
    setError(undefined);
    try {
      await props.onConfirm();
      setOpen(false);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <button className={props.danger ? "danger" : undefined} disabled={props.disabled} onClick={() => setOpen(true)}>
        {props.label}
      </button>
      {open && (
        <div className="backdrop">
          <div role="dialog" aria-modal="true" aria-label={props.label} className="dialog">
            <p>{props.question}</p>
            {error && <p className="error">{error}</p>}
            <div className="actions">
              <button onClick={() => setOpen(false)} disabled={busy}>
                Keep
              </button>
              <button className="danger" onClick={confirm} disabled={busy}>
                Confirm
              </button>
            </div>
          </div>
        </div>
      )}
    </>
  );
}
