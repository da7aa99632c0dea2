/**
 * The six-digit withdrawal password as a code pad: six boxes that show a dot per digit, over a
 * numeric keypad drawn in the page, so no system keyboard covers the screen and nothing typed is
 * shown. A physical keyboard works too (digits, Backspace) while the boxes have focus.
 *
 * `CodePadPopup` puts the pad in a bottom sheet to confirm an action: it calls `onComplete` once
 * the sixth digit is in, then empties the boxes for another try; the caller closes it on success.
 */
import { useEffect, useRef, useState } from 'react';
import { PasscodeInput, type NumberKeyboardProps, type PasscodeInputRef } from 'antd-mobile';
import { TextDeletionOutline } from 'antd-mobile-icons';
import { useTranslation } from '../i18n/react';
import { BottomSheet } from './bottom-sheet';

export const CODE_PAD_LENGTH = 6;

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '', '0', 'delete'] as const;

/**
 * Given to PasscodeInput as its keyboard: with one set it never focuses its hidden text input
 * (which would open the system keyboard); the keypad below is the real keyboard.
 */
function KeypadInThePage(_props: NumberKeyboardProps) {
  return null;
}

const keyStyle: React.CSSProperties = {
  height: 52,
  border: 0,
  borderRadius: 10,
  background: 'var(--surface-raised)',
  color: 'var(--text)',
  font: 'inherit',
  fontSize: 22,
  fontWeight: 600,
  fontVariantNumeric: 'tabular-nums',
  cursor: 'pointer',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  touchAction: 'manipulation',
};

export function CodePad({
  value,
  onChange,
  length = CODE_PAD_LENGTH,
  error = false,
  disabled = false,
  autoFocus = false,
  label,
}: {
  value: string;
  onChange: (value: string) => void;
  length?: number;
  /** Marks the boxes red (a wrong code); the message is the caller's. */
  error?: boolean;
  disabled?: boolean;
  /** Focus the boxes at once, so a physical keyboard types into them. */
  autoFocus?: boolean;
  /** What the boxes are for, read by screen readers. */
  label?: string;
}) {
  const { t } = useTranslation();
  const boxes = useRef<PasscodeInputRef>(null);
  useEffect(() => {
    if (autoFocus) boxes.current?.focus();
  }, [autoFocus]);

  function press(key: string) {
    if (disabled) return;
    if (key === 'delete') onChange(value.slice(0, -1));
    else if (/^\d$/.test(key) && value.length < length) onChange(value + key);
  }

  return (
    <div
      className="code-pad"
      data-testid="code-pad"
      style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 20 }}
      onKeyDown={(event) => {
        if (/^\d$/.test(event.key)) press(event.key);
        else if (event.key === 'Backspace') press('delete');
        else return;
        event.preventDefault();
      }}
    >
      <div dir="ltr" data-testid="code-pad-boxes" data-filled={value.length}>
        <PasscodeInput
          ref={boxes}
          value={value}
          length={length}
          error={error}
          seperated
          keyboard={<KeypadInThePage />}
          aria-label={label ?? t('codePad_label')}
          style={{
            '--cell-size': '44px',
            '--cell-gap': '8px',
            '--border-color': error ? 'var(--danger)' : 'var(--border)',
            '--border-radius': '10px',
          }}
        />
      </div>
      <div
        role="group"
        aria-label={t('codePad_keypad')}
        dir="ltr"
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(3, 1fr)',
          gap: 8,
          width: '100%',
          maxWidth: 360,
        }}
      >
        {KEYS.map((key, index) =>
          key === '' ? (
            <span key={`blank-${index}`} aria-hidden="true" />
          ) : (
            <button
              key={key}
              type="button"
              data-key={key}
              disabled={disabled}
              aria-label={key === 'delete' ? t('codePad_delete') : key}
              style={{
                ...keyStyle,
                background: key === 'delete' ? 'transparent' : keyStyle.background,
                opacity: disabled ? 0.5 : 1,
              }}
              // Keeps the focus on the boxes, so a physical keyboard goes on working.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => press(key)}
            >
              {key === 'delete' ? <TextDeletionOutline /> : key}
            </button>
          ),
        )}
      </div>
    </div>
  );
}

/**
 * A bottom sheet asking for the code: a title, what is being confirmed (`children`), the pad and
 * the caller's error. `onComplete` runs once six digits are in; the boxes empty afterwards, and
 * the error shows until the user types again.
 */
export function CodePadPopup({
  visible,
  title,
  children,
  error,
  pending = false,
  onClose,
  onComplete,
}: {
  visible: boolean;
  title: string;
  children?: React.ReactNode;
  error?: string | undefined;
  pending?: boolean;
  onClose: () => void;
  onComplete: (code: string) => Promise<void> | void;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const running = useRef(false);

  async function change(next: string) {
    setCode(next);
    if (next.length < CODE_PAD_LENGTH || running.current) return;
    running.current = true;
    try {
      await onComplete(next);
    } finally {
      running.current = false;
      setCode('');
    }
  }

  const shownError = code.length === 0 ? error : undefined;
  return (
    <BottomSheet
      visible={visible}
      onClose={onClose}
      showCloseButton={!pending}
      closeOnMaskClick={!pending}
      destroyOnClose
      afterClose={() => setCode('')}
    >
      <div
        data-testid="code-pad-popup"
        style={{
          display: 'flex',
          flexDirection: 'column',
          gap: 16,
          padding: '20px 16px calc(16px + env(safe-area-inset-bottom))',
        }}
      >
        <h2 style={{ margin: 0, fontSize: 17, fontWeight: 600, textAlign: 'center' }}>{title}</h2>
        {children}
        <CodePad
          value={code}
          onChange={(next) => void change(next)}
          error={Boolean(shownError)}
          disabled={pending}
          autoFocus={visible}
          label={title}
        />
        <div
          role="alert"
          data-testid="code-pad-error"
          style={{ minHeight: 18, color: 'var(--danger)', fontSize: 13, textAlign: 'center' }}
        >
          {pending ? <span className="muted">{t('common_loading')}</span> : shownError}
        </div>
      </div>
    </BottomSheet>
  );
}
