/** A firm's brand for its client documents (issue 28): the brand file's schema and loader; the writers in reports/ draw it. */
export { loadBrand, managerOf, BrandError, type Brand, type Manager, type LogoImage, type BrandFont } from './load-brand';
export { BrandFile, BRAND_KEYS } from './schema';
export { contrast, adjustForContrast, AA_TEXT } from './contrast';
export { brandIn, brandText, managerIn, managerTitle, type BrandTextField, type BrandTextWarning, type ManagerIn } from './brand-text';
export type { LocalText } from './local-text';
