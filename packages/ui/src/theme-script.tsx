import { themeStartupScript } from './theme';

/**
 * Renders the theme start-up script. Place it in `<head>` so the right theme is applied before the
 * browser paints anything; a theme set later in an effect would flash the light page first.
 */
export function ThemeScript({ nonce }: { nonce?: string | undefined }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the script is a constant built in theme.ts, never user input.
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeStartupScript }} />;
}
