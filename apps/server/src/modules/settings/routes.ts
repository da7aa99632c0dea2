/** The launch calls of SEED-SPEC section 7: what the app reads before its first screen. */
import {
  SWITCH,
  normalize,
  settingsApi as routes,
  type LanguageKey,
  type SiteBanner,
} from '@bourse/shared';
import type { Config } from '../../config';
import { ok, page } from '../../http/envelope';
import type { Router } from '../../http/router';
import { pickLanguage, translate } from '../../lib/i18n';
import type { SettingsService } from './service';

export interface SiteInfoExtras {
  /** Whether a verification code is needed to register through each channel. */
  codeRequired: (channel: 'email' | 'phone') => boolean;
  /** The banners operators wrote (content module), or undefined to show the default ones. */
  banners?: (lang: LanguageKey) => Promise<SiteBanner[] | undefined>;
}

/**
 * Every launch call is public data answered from memory (settings are cached for a few seconds):
 * cheaper to serve than to count, so they count against no request budget.
 */
const launchData = { rateLimit: false } as const;

export function settingsRoutes(
  router: Router,
  settings: SettingsService,
  config: Config,
  extras: SiteInfoExtras,
): void {
  // siteInfo is the hottest launch call: its answer is kept as the text that is sent, written once
  // per cache period by the Router's serializer of the route (schema and checks of every answer).
  const writeSiteInfo = router.answerWriter(routes.siteInfo);

  router.handle(
    routes.siteInfo,
    async ({ lang, reply }) => {
      const body = await settings.cachedBody(`siteInfo:${lang}`, async () => {
        const [site, otherValue, switches, layout, authoredBanners] = await Promise.all([
          settings.siteInfo(),
          settings.otherValue(),
          settings.switches(),
          settings.layout(),
          extras.banners?.(lang),
        ]);
        const on = (name: string) => switches.get(name) === 1;
        return writeSiteInfo(
          ok({
            ...site,
            banners:
              authoredBanners ??
              site.banners.map((banner) => ({
                id: banner.id,
                title: translate(lang, banner.titleKey),
                text: translate(lang, banner.textKey),
                route: banner.route,
              })),
            slogan: translate(lang, 'site_slogan'),
            defaultLang: 'en',
            apiLines: config.apiLines,
            otherValue,
            register: {
              phone: on(SWITCH.registerByPhone),
              email: on(SWITCH.registerByEmail),
              inviteCodeRequired: on(SWITCH.inviteCodeRequired),
              codeRequired: {
                phone: extras.codeRequired('phone'),
                email: extras.codeRequired('email'),
              },
            },
            demoAccount: on(SWITCH.demoAccount),
            layout,
            // Quote screens label simulated prices as such (PRODUCT section 1.7).
            marketFeed: config.MARKET_FEED,
          }),
        );
      });
      // The reply is a thenable that settles once the text is sent: returning it tells Fastify
      // the handler answered itself.
      return reply.type('application/json; charset=utf-8').send(body);
    },
    launchData,
  );

  router.handle(
    routes.tips,
    async ({ query, lang }) => {
      const { rows, total } = await settings.tips(
        query.pageSize,
        (query.pageNum - 1) * query.pageSize,
      );
      return page(
        rows.map((row) => ({
          id: row.id,
          remark: row.remark,
          contentLang: pickLanguage(row.content_lang, lang),
          contentVisibleFlag: row.content_visible_flag,
        })),
        total,
      );
    },
    launchData,
  );

  router.handle(
    routes.feeSettings,
    async () => {
      const rows = (await settings.fees()).map((row) => ({
        id: row.id,
        // The remark encodes the key the fee applies to: productType_PositionType_exType.
        remark: `${row.product_type}_${row.position_type}_${row.ex_type}`,
        feeRate: normalize(row.fee_rate),
        productType: row.product_type,
        PositionType: row.position_type,
        exType: row.ex_type,
      }));
      return page(rows, rows.length);
    },
    launchData,
  );

  router.handle(
    routes.languagePack,
    async ({ query }) => ok(await settings.languagePack(query.lang as LanguageKey)),
    launchData,
  );

  router.handle(
    routes.switches,
    async () => {
      const rows = [...(await settings.switches())].map(([switchName, status]) => ({
        switchName,
        status,
      }));
      return page(rows, rows.length);
    },
    launchData,
  );

  router.handle(
    routes.popUps,
    async ({ lang }) => {
      const rows = (await settings.popUps()).map((row) => ({
        id: row.id,
        title: pickLanguage(row.title, lang),
        content: pickLanguage(row.content, lang),
        version: row.version,
        createTime: row.created_at.toISOString(),
      }));
      return page(rows, rows.length);
    },
    launchData,
  );

  router.handle(
    routes.pageConfig,
    async ({ query }) => {
      const rows = (await settings.appConfig(query.pagePath)).map((row) => ({
        pagePath: row.page_path,
        module: row.module,
        isVisible: row.is_visible,
        desc: row.description,
        sort: row.sort,
      }));
      return page(rows, rows.length);
    },
    launchData,
  );

  router.handle(
    routes.platformCurrencies,
    async ({ query }) => {
      const rows = (await settings.currencies()).filter(
        (currency) =>
          query.currencyType === undefined || currency.currencyType === query.currencyType,
      );
      return page(rows, rows.length);
    },
    launchData,
  );

  router.handle(
    routes.bankFields,
    async ({ query, lang }) => {
      const rows = (await settings.bankProperties(query.configType ?? 0)).map((row) => ({
        id: row.id,
        configType: row.config_type,
        propertyName: row.property_name,
        labelKey: row.label_key,
        label: translate(lang, row.label_key),
        isRequired: row.is_required,
        inputType: row.input_type,
        maxLength: row.max_length,
        sort: row.sort,
      }));
      return page(rows, rows.length);
    },
    launchData,
  );
}
