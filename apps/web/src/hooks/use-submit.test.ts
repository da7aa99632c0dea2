/**
 * The submit hook behind every form: a double tap sends once, but a tap after the form changed is
 * sent however soon it comes (a retyped password 100 ms after the last answer was dropped before).
 */
import { act, createElement, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UI } from '@bourse/shared';
import { Form } from '../components/form';
import { useSubmit } from './use-submit';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLDivElement;
let root: Root;
const sent: string[] = [];

function Login() {
  const [password, setPassword] = useState('');
  const { submit } = useSubmit(async () => {
    sent.push(password);
  });
  return createElement(Form, {
    onSubmit: submit,
    children: [
      createElement('input', {
        key: 'password',
        id: 'password',
        value: password,
        onChange: (event: { target: HTMLInputElement }) => setPassword(event.target.value),
      }),
      createElement('button', { key: 'send', type: 'submit', id: 'send' }, 'Sign in'),
    ],
  });
}

function type(value: string) {
  const input = document.querySelector<HTMLInputElement>('#password')!;
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function tap() {
  await act(async () => {
    document.querySelector<HTMLButtonElement>('#send')!.click();
    await Promise.resolve();
  });
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  sent.length = 0;
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() => root.render(createElement(Login)));
});

afterEach(() => {
  act(() => root.unmount());
  document.body.innerHTML = '';
  vi.useRealTimers();
});

describe('useSubmit with a form', () => {
  it('sends a double tap of the same form once', async () => {
    type('secret1');
    await tap();
    vi.advanceTimersByTime(UI.debounceMs - 100);
    await tap();
    expect(sent).toEqual(['secret1']);
  });

  it('sends the same form again once the debounce window has passed', async () => {
    type('secret1');
    await tap();
    vi.advanceTimersByTime(UI.debounceMs);
    await tap();
    expect(sent).toEqual(['secret1', 'secret1']);
  });

  it('sends a changed form at once, however soon after the last tap', async () => {
    type('wrong');
    await tap();
    vi.advanceTimersByTime(50);
    type('secret1');
    await tap();
    expect(sent).toEqual(['wrong', 'secret1']);
  });
});
