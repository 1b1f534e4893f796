import { benchGuard } from './guard';
import { benchJournal } from './journal';
import { benchLedger } from './ledger';
import { benchRunner } from './runner';
import { benchServe } from './serve';
import { benchReport } from './report';
import { benchTeam } from './team';
import { benchRedaction } from './redaction';

export interface Section {
  name: string;
  run: () => Promise<string[]>;
}

export const sections: Section[] = [
  { name: 'runner', run: benchRunner },
  { name: 'ledger', run: benchLedger },
  { name: 'journal', run: benchJournal },
  { name: 'guard', run: benchGuard },
  { name: 'serve', run: benchServe },
  { name: 'report', run: benchReport },
  { name: 'team', run: benchTeam },
  { name: 'redaction', run: benchRedaction },
];
