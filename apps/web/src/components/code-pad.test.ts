/**
 * The code pad: digits from its keypad and from a physical keyboard fill six boxes, delete takes
 * the last one back, a seventh is refused; the popup hands the six digits over once and empties.
 */
import { createElement, useState } from 'react';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CodePad, CodePadPopup } from './code-pad';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLDivElement;
let root: Root;

beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  document.body.innerHTML = '';
});

function key(name: string): HTMLButtonElement {
  const button = document.querySelector<HTMLButtonElement>(`button[data-key="${name}"]`);
  if (!button) throw new Error(`no key ${name}`);
  return button;
}

function press(...names: string[]) {
  for (const name of names) act(() => key(name).click());
}

function filled(): number {
  return document.querySelectorAll('.adm-passcode-input-cell-dot').length;
}

function Controlled({ onValue }: { onValue: (value: string) => void }) {
  const [value, setValue] = useState('');
  return createElement(CodePad, {
    value,
    onChange: (next: string) => {
      setValue(next);
      onValue(next);
    },
  });
}

describe('CodePad', () => {
  it('has six boxes and a keypad of ten digits and delete', () => {
    act(() => root.render(createElement(CodePad, { value: '', onChange: () => undefined })));
    expect(document.querySelectorAll('.adm-passcode-input-cell')).toHaveLength(6);
    expect(document.querySelectorAll('button[data-key]')).toHaveLength(11);
    expect(filled()).toBe(0);
  });

  it('types from the keypad, deletes, and stops at six digits, showing dots only', () => {
    const values: string[] = [];
    act(() => root.render(createElement(Controlled, { onValue: (value) => values.push(value) })));
    press('1', '2', '3');
    expect(values.at(-1)).toBe('123');
    expect(filled()).toBe(3);
    expect(document.querySelector('.adm-passcode-input-cell-container')!.textContent).toBe('');
    press('delete');
    expect(values.at(-1)).toBe('12');
    press('4', '5', '6', '7', '8', '9');
    expect(values.at(-1)).toBe('124567');
    expect(filled()).toBe(6);
  });

  it('takes digits and Backspace from a physical keyboard', () => {
    const values: string[] = [];
    act(() => root.render(createElement(Controlled, { onValue: (value) => values.push(value) })));
    const boxes = document.querySelector('.adm-passcode-input')!;
    for (const name of ['5', 'a', '0', 'Backspace', '9']) {
      act(() => {
        boxes.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true }));
      });
    }
    expect(values).toEqual(['5', '50', '5', '59']);
  });

  it('ignores the keypad while disabled', () => {
    const onChange = vi.fn();
    act(() => root.render(createElement(CodePad, { value: '', onChange, disabled: true })));
    press('1');
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('CodePadPopup', () => {
  it('hands over the six digits once, then empties for another try', async () => {
    const onComplete = vi.fn(async () => undefined);
    act(() =>
      root.render(
        createElement(CodePadPopup, {
          visible: true,
          title: 'Enter your withdrawal password',
          error: 'The withdrawal password is wrong',
          onClose: () => undefined,
          onComplete,
        }),
      ),
    );
    expect(document.body.textContent).toContain('Enter your withdrawal password');
    expect(document.body.textContent).toContain('The withdrawal password is wrong');
    press('1');
    // The error stays hidden while the user types again.
    expect(document.body.textContent).not.toContain('The withdrawal password is wrong');
    press('2', '3', '4', '5');
    await act(async () => key('6').click());
    expect(onComplete).toHaveBeenCalledTimes(1);
    expect(onComplete).toHaveBeenCalledWith('123456');
    expect(filled()).toBe(0);
  });
});
