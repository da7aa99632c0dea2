/**
 * A deposit's payment proof. The image needs the operator's session, so it is fetched through the
 * client (a Blob, shown from an object URL, which the page's policy allows) rather than linked;
 * clicking it opens antd's preview: zoom with the wheel or the toolbar, rotate, flip, drag.
 */
import { useEffect, useState } from 'react';
import { Alert, Image, Skeleton } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { operatorsApi } from '@bourse/shared';
import { api } from '../api';
import { errorText } from '../i18n';

/** An object URL of a fetched image, revoked when it changes or the component goes. */
export function useObjectUrl(blob: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob) return;
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => {
      URL.revokeObjectURL(made);
      setUrl(undefined);
    };
  }, [blob]);
  return url;
}

export function ProofImage({ id }: { id: number }) {
  const { t } = useTranslation();
  const proof = useQuery({
    queryKey: ['proof', id],
    queryFn: () => api.call(operatorsApi.rechargeProof, { id }),
    // The stored image never changes.
    staleTime: Infinity,
    gcTime: 60_000,
  });
  const url = useObjectUrl(proof.data);
  if (proof.isError) return <Alert type="error" showIcon message={errorText(proof.error)} />;
  if (!url) return <Skeleton.Image active style={{ width: 240, height: 180 }} />;
  return (
    <div data-testid="proof">
      <Image
        src={url}
        alt={t('deposits.proof')}
        style={{ maxHeight: 320, objectFit: 'contain', border: '1px solid #f0f0f0' }}
        preview={{ mask: t('deposits.zoom') }}
      />
    </div>
  );
}
