// When svc-cli runs from a bundle (`npm run build:cli`), cli/build.ts replaces this module with
// the contents of templates/skills, so the bundle is one self-contained file. From source it is
// undefined and the templates are read from the checkout.
export const embeddedTemplates: Record<string, string> | undefined = undefined;
