/**
 * A duration in the two largest units that matter: "45 s", "3 min 20 s", "2 h 5 min", "3 d 4 h";
 * under a second in milliseconds ("200 ms", a test's sampling interval).
 */
export function formatDuration(seconds: number): string {
  if (seconds > 0 && seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  const units: [number, string][] = [
    [86_400, 'd'],
    [3600, 'h'],
    [60, 'min'],
    [1, 's'],
  ];
  const first = units.findIndex(([size]) => whole >= size);
  const [bigSize, bigName] = units[first]!;
  const [smallSize, smallName] = units[first + 1]!;
  const big = Math.floor(whole / bigSize);
  const small = Math.floor((whole - big * bigSize) / smallSize);
  return small === 0 ? `${big} ${bigName}` : `${big} ${bigName} ${small} ${smallName}`;
}
