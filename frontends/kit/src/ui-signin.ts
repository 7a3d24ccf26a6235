// The components of the sign-in entry (`@portico/kit/signin`): lean ones (see lean/index.ts), with the
// names and the props of Mantine's that the sign-in page uses. The later steps take Mantine's own from
// the whole kit, with its provider.
export * from './lean/index.js';
