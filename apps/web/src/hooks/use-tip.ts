/**
 * A tip of the launch data (`textLang/list`, by its remark): the copy kept on the device at once,
 * then the server's. `undefined` until the tips were read once on this device, so a screen can
 * hold the tip's place rather than push its content down when it arrives.
 */
import { useQuery } from '@tanstack/react-query';
import { storedTips, tipsQuery } from '../api/launch';

export function useTip(remark: string): { content: string; isShow: number } | undefined {
  const tips = useQuery({
    ...tipsQuery,
    initialData: storedTips,
    initialDataUpdatedAt: 0,
  }).data;
  if (!tips) return undefined;
  return tips[remark] ?? { content: '', isShow: -1 };
}
