import { CAUSES } from './fixtures/guard-causes';
import { CAUSES as FOREIGN } from './fixtures/guard-causes-foreign';
import { CAUSES as SYSTEM } from './fixtures/guard-causes-system';
import { CAUSES3 } from './fixtures/guard-causes3';
import { CAUSES4 } from './fixtures/guard-causes4';
import { CAUSES5 } from './fixtures/guard-causes5';
import { CAUSES9 } from './fixtures/guard-causes9';
import { CAUSES10 } from './fixtures/guard-causes10';
import { CAUSES11 } from './fixtures/guard-causes11';
import { CAUSES12 } from './fixtures/guard-causes12';
import { CAUSES14, CAUSES15, CAUSES16, CAUSES17 } from './fixtures/guard-causes14';
import { describeCauses } from './guard-cause-suite';

// Each red-team round adds its own file of causes.
describeCauses('causes of red-team misses, each with its own commands', { ...CAUSES, ...CAUSES3, ...CAUSES4, ...CAUSES5, ...CAUSES9, ...CAUSES10, ...CAUSES11, ...CAUSES12, ...CAUSES14, ...CAUSES15, ...CAUSES16, ...CAUSES17, ...SYSTEM, ...FOREIGN });
