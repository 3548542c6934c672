import type { Translation } from 'vanilla-cookieconsent';
import type { Locale } from '../../src/shared/locale';

/**
 * The consent dialog's texts in the four locales (§1). They live here, not in locales/, because the
 * dialog runs in the browser only and loads with the consent manager, after the first paint.
 * The library inserts them as HTML: keep them plain text with no markup and no user data.
 */
export const CONSENT_TEXTS: Readonly<Record<Locale, Translation>> = {
  'en-US': {
    consentModal: {
      title: 'We use cookies',
      description:
        'We use necessary cookies to keep you signed in and secure. With your permission, we also use analytics cookies to understand how our sites are used.',
      acceptAllBtn: 'Accept all',
      acceptNecessaryBtn: 'Reject all',
      showPreferencesBtn: 'Manage preferences',
    },
    preferencesModal: {
      title: 'Cookie preferences',
      acceptAllBtn: 'Accept all',
      acceptNecessaryBtn: 'Reject all',
      savePreferencesBtn: 'Save preferences',
      closeIconLabel: 'Close',
      serviceCounterLabel: 'Service|Services',
      sections: [
        {
          title: 'Your privacy choices',
          description:
            'Choose which cookies we may use. You can change your choice at any time from the footer of any page.',
        },
        {
          title: 'Strictly necessary',
          description:
            'These cookies keep you signed in, protect your account and remember your settings, such as the theme. They cannot be switched off.',
          linkedCategory: 'necessary',
        },
        {
          title: 'Analytics',
          description:
            'These cookies tell us how collectors use our sites so that we can improve them. They are set only with your consent.',
          linkedCategory: 'analytics',
        },
      ],
    },
  },
  'en-CA': {
    consentModal: {
      title: 'We use cookies',
      description:
        'We use necessary cookies to keep you signed in and secure. With your permission, we also use analytics cookies to understand how our sites are used.',
      acceptAllBtn: 'Accept all',
      acceptNecessaryBtn: 'Reject all',
      showPreferencesBtn: 'Manage preferences',
    },
    preferencesModal: {
      title: 'Cookie preferences',
      acceptAllBtn: 'Accept all',
      acceptNecessaryBtn: 'Reject all',
      savePreferencesBtn: 'Save preferences',
      closeIconLabel: 'Close',
      serviceCounterLabel: 'Service|Services',
      sections: [
        {
          title: 'Your privacy choices',
          description:
            'Choose which cookies we may use. You can change your choice at any time from the footer of any page.',
        },
        {
          title: 'Strictly necessary',
          description:
            'These cookies keep you signed in, protect your account and remember your settings, such as the colour theme. They cannot be switched off.',
          linkedCategory: 'necessary',
        },
        {
          title: 'Analytics',
          description:
            'These cookies tell us how collectors use our sites so that we can improve them. They are set only with your consent.',
          linkedCategory: 'analytics',
        },
      ],
    },
  },
  'fr-CA': {
    consentModal: {
      title: 'Nous utilisons des témoins',
      description:
        'Nous utilisons des témoins nécessaires pour garder votre session ouverte et sécurisée. Avec votre permission, nous utilisons aussi des témoins d’analyse pour comprendre comment nos sites sont utilisés.',
      acceptAllBtn: 'Tout accepter',
      acceptNecessaryBtn: 'Tout refuser',
      showPreferencesBtn: 'Gérer les préférences',
    },
    preferencesModal: {
      title: 'Préférences en matière de témoins',
      acceptAllBtn: 'Tout accepter',
      acceptNecessaryBtn: 'Tout refuser',
      savePreferencesBtn: 'Enregistrer les préférences',
      closeIconLabel: 'Fermer',
      serviceCounterLabel: 'Service|Services',
      sections: [
        {
          title: 'Vos choix en matière de confidentialité',
          description:
            'Choisissez les témoins que nous pouvons utiliser. Vous pouvez modifier votre choix en tout temps à partir du pied de page de n’importe quelle page.',
        },
        {
          title: 'Strictement nécessaires',
          description:
            'Ces témoins gardent votre session ouverte, protègent votre compte et retiennent vos réglages, comme le thème. Ils ne peuvent pas être désactivés.',
          linkedCategory: 'necessary',
        },
        {
          title: 'Analyse',
          description:
            'Ces témoins nous indiquent comment les collectionneurs utilisent nos sites afin que nous puissions les améliorer. Ils ne sont déposés qu’avec votre consentement.',
          linkedCategory: 'analytics',
        },
      ],
    },
  },
  'ja-JP': {
    consentModal: {
      title: 'クッキーの使用について',
      description:
        'ログイン状態の維持とセキュリティのために必要なクッキーを使用しています。お客様の同意がある場合に限り、サイトの利用状況を把握するための分析用クッキーも使用します。',
      acceptAllBtn: 'すべて許可',
      acceptNecessaryBtn: 'すべて拒否',
      showPreferencesBtn: '設定を管理',
    },
    preferencesModal: {
      title: 'クッキー設定',
      acceptAllBtn: 'すべて許可',
      acceptNecessaryBtn: 'すべて拒否',
      savePreferencesBtn: '設定を保存',
      closeIconLabel: '閉じる',
      serviceCounterLabel: 'サービス',
      sections: [
        {
          title: 'プライバシーに関する選択',
          description:
            '当社が使用できるクッキーを選択してください。選択内容は、各ページのフッターからいつでも変更できます。',
        },
        {
          title: '必須クッキー',
          description:
            'ログイン状態の維持、アカウントの保護、テーマなどの設定の保存に使用します。無効にすることはできません。',
          linkedCategory: 'necessary',
        },
        {
          title: '分析用クッキー',
          description:
            'サイトの改善のため、コレクターの皆様によるサイトの利用状況を把握するために使用します。お客様の同意がある場合にのみ設定されます。',
          linkedCategory: 'analytics',
        },
      ],
    },
  },
};
