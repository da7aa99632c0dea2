export * from './constants';
export * from './validators';
export * from './money';
export * from './format';
export * from './schemas/common';
export * from './schemas/account';
export * from './schemas/launch';
export * from './schemas/market';
