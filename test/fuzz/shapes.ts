// Builders of hostile commands of a given length, shared by the guard's
// work-meter test (test/guard-linear.test.ts) and its time-ratio chaos test.
export const rep = (unit: string, n: number): string => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

export const seq = (n: number, f: (i: number) => string): string => {
  let s = '';
  for (let i = 0; s.length < n; i++) s += f(i);
  return s;
};
