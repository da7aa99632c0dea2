/**
 * Picking an image to send (a payment proof, an identity document): a JPEG or PNG only, compressed
 * as the spec says (lib/compress-image) under a loading toast; a failed compression shows the
 * spec's modal (SEED-SPEC section 8: loading hidden, then the modal without a cancel button).
 * The input is emptied, so the same file can be picked again after a failure.
 */
import { useState, type ChangeEvent } from 'react';
import { showToast } from '../api';
import { useTranslation } from '../i18n/react';
import { Dialog, Toast } from '../lib/antd-render';
import { compressImage, isAcceptedImage } from '../lib/compress-image';

export function useImagePick(onPicked: (image: string) => void) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);

  async function pick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!isAcceptedImage(file)) {
      showToast(t('proof_typeInvalid'));
      return;
    }
    setBusy(true);
    Toast.show({ icon: 'loading', content: t('proof_compressing'), duration: 0 });
    try {
      const compressed = await compressImage(file);
      Toast.clear();
      onPicked(compressed);
    } catch {
      Toast.clear();
      await Dialog.alert({
        title: t('img_compressFailed'),
        content: t('img_compressFailed'),
        confirmText: t('common_gotIt'),
      });
    } finally {
      setBusy(false);
    }
  }

  return { busy, pick };
}
