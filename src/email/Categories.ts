/**
 * The email categories. Optional ones can be turned off (and carry a one-click unsubscribe link);
 * must-receive ones cannot (and never get a token). The keys are mirrored in sql/0003_email.sql.
 */
export interface Category {
  readonly key: string
  readonly label: string
  readonly description: string
  readonly canDisable: boolean
}

export const NEWSLETTER = "marketing_newsletter"

export const optionalCategories: ReadonlyArray<Category> = [
  {
    key: NEWSLETTER,
    label: "Newsletter",
    description: "Product news, tips and announcements. Off until you subscribe.",
    canDisable: true
  }
]

export const mustReceiveCategories: ReadonlyArray<Category> = [
  {
    key: "account_security",
    label: "Account security",
    description: "Sign-in, API key and other security notices about your account.",
    canDisable: false
  },
  {
    key: "service_critical",
    label: "Critical service and account notices",
    description: "Outages, data incidents and changes that affect your account.",
    canDisable: false
  },
  {
    key: "billing",
    label: "Billing, payments and credit purchases",
    description: "Receipts and notices about payments and credit purchases.",
    canDisable: false
  },
  {
    key: "legal",
    label: "Required legal notices",
    description: "Notices we are required by law to send, such as changes to the terms.",
    canDisable: false
  }
]

const byKey = new Map([...optionalCategories, ...mustReceiveCategories].map((c) => [c.key, c]))

export const categoryOf = (key: string): Category | undefined => byKey.get(key)

export const isOptional = (key: string): boolean => byKey.get(key)?.canDisable === true
