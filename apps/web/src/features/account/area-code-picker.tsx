/** Area code button and its searchable list of countries (getPhoneAreaCodeList). */
import { useMemo, useState } from 'react';
import { List, Popup, SearchBar } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/react';
import { fetchAreaCodes } from './api';

export function AreaCodePicker({
  value,
  onChange,
}: {
  value: string;
  onChange: (areaCode: string) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const codes = useQuery({ queryKey: ['areaCodes'], queryFn: fetchAreaCodes, staleTime: Infinity });
  const shown = useMemo(() => {
    const term = search.trim().toLowerCase().replace(/^\+/, '');
    return (codes.data ?? []).filter(
      (code) =>
        !term ||
        code.areaCode.startsWith(term) ||
        code.countryName.toLowerCase().includes(term) ||
        code.countryCode.toLowerCase() === term,
    );
  }, [codes.data, search]);
  return (
    <>
      <button
        type="button"
        className="area-code-button"
        aria-label={t('field_areaCode')}
        data-testid="area-code"
        onClick={() => setOpen(true)}
      >
        +{value} ▾
      </button>
      <Popup visible={open} onMaskClick={() => setOpen(false)} bodyClassName="area-code-popup">
        <SearchBar placeholder={t('account_searchCountry')} value={search} onChange={setSearch} />
        <div className="area-code-list">
          <List>
            {shown.map((code) => (
              <List.Item
                key={code.id}
                extra={`+${code.areaCode}`}
                onClick={() => {
                  onChange(code.areaCode);
                  setOpen(false);
                }}
              >
                {code.countryName}
              </List.Item>
            ))}
          </List>
        </div>
      </Popup>
    </>
  );
}
