// Tailwind v4 runs as a single PostCSS plugin; it handles imports and vendor prefixes itself.
export default {
  plugins: {
    '@tailwindcss/postcss': {},
  },
};
