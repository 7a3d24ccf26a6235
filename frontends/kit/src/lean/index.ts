// Lean components: Mantine's markup, drawn by Mantine's stylesheet, without Mantine's JavaScript (its
// provider, style resolution and hooks). The sign-in page is made of these so that its first load
// evaluates and renders no more than a form needs; they look as Mantine's do because they are Mantine's
// elements and classes (a kit test compares their markup with Mantine's for the props they take).
export * from './Alert.js';
export * from './Button.js';
export * from './Image.js';
export * from './layout.js';
export * from './SignInThemeProvider.js';
export * from './TextInput.js';
export * from './typography.js';
