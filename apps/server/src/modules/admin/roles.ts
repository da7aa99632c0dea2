/** Operator roles (PRODUCT section 2): each gates a part of the operator API. */
export const OPERATOR_ROLES = ['admin', 'finance', 'support', 'content'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];
