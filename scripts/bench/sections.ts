import { benchGuard } from './guard';
import { benchLedger } from './ledger';
import { benchRunner } from './runner';
import { benchServe } from './serve';

export interface Section {
  name: string;
  run: () => Promise<string[]>;
}

export const sections: Section[] = [
  { name: 'runner', run: benchRunner },
  { name: 'ledger', run: benchLedger },
  { name: 'guard', run: benchGuard },
  { name: 'serve', run: benchServe },
];
