/** Operator roles (PRODUCT section 2): each gates a part of the operator API (@bourse/shared). */
export { OPERATOR_ROLES, type OperatorRole } from '@bourse/shared';
