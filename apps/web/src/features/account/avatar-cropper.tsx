/**
 * The crop step of a new avatar: the picked picture under a round mask, moved by dragging and
 * zoomed by pinching, the wheel or the slider (react-easy-crop, loaded with this step only).
 */
import { useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import { Button, Slider } from 'antd-mobile';
import { useTranslation } from '../../i18n/react';
import type { CropArea } from './avatar-image';
import './profile.css';

const MAX_ZOOM = 4;

export default function AvatarCropper({
  image,
  pending,
  onCancel,
  onDone,
}: {
  /** The picked picture (an object URL). */
  image: string;
  pending: boolean;
  onCancel: () => void;
  onDone: (area: CropArea) => void;
}) {
  const { t } = useTranslation();
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area>();
  return (
    <div className="stack avatar-crop" data-testid="avatar-cropper">
      <strong>{t('avatar_cropTitle')}</strong>
      <div className="avatar-crop-area" dir="ltr">
        <Cropper
          image={image}
          crop={crop}
          zoom={zoom}
          maxZoom={MAX_ZOOM}
          aspect={1}
          cropShape="round"
          showGrid={false}
          onCropChange={setCrop}
          onZoomChange={setZoom}
          onCropComplete={(_, pixels) => setArea(pixels)}
        />
      </div>
      <label className="row avatar-crop-zoom">
        <span className="muted">{t('avatar_zoom')}</span>
        <Slider
          min={1}
          max={MAX_ZOOM}
          step={0.01}
          value={zoom}
          onChange={(value) => setZoom(Array.isArray(value) ? value[0]! : value)}
          style={{ flex: 1 }}
        />
      </label>
      <div className="row">
        <Button block onClick={onCancel} disabled={pending} data-testid="avatar-crop-cancel">
          {t('common_cancel')}
        </Button>
        <Button
          block
          color="primary"
          loading={pending}
          disabled={!area}
          onClick={() => area && onDone(area)}
          data-testid="avatar-crop-save"
        >
          {t('common_save')}
        </Button>
      </div>
    </div>
  );
}
