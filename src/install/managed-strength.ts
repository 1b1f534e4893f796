// How firmly a harness's managed (organisation) settings hold loom's hooks:
// what `loom doctor` says next to a managed scope. Each harness leaves a
// user a different way out (see docs/adoption.md, "Scopes"); this checks the
// ones loom knows of on this machine, and says which remain.
import { readFileSync } from 'node:fs';
import { hooksFeaturePinned } from './codex-requirements';
import { notAdminOnly } from './managed-path';
import { target, type InstallHarness } from './targets';

export interface Strength {
  ok: boolean;
  detail: string;
  fix?: string;
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    return doc && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const hooksConfig = (doc: Record<string, unknown> | undefined) => {
  const hc = doc?.hooksConfig;
  return hc && typeof hc === 'object' && !Array.isArray(hc) ? (hc as Record<string, unknown>) : {};
};

export function managedStrength(harness: InstallHarness, file: string, project: string, env: NodeJS.ProcessEnv = process.env): Strength {
  const reinstall = `run loom install --harness ${harness} --scope managed`;
  const editable = notAdminOnly(file);
  if (editable) return { ok: false, detail: `managed settings a user can change: ${editable}`, fix: `as root: chown root:root and chmod 644 ${file} (its folder 755), or ${reinstall} with sudo` };
  switch (harness) {
    case 'claude': {
      if (readJson(file)?.disableAllHooks === true) return { ok: false, detail: 'disableAllHooks is true in the managed file: no hook runs', fix: `remove disableAllHooks from ${file}` };
      return { ok: true, detail: 'managed settings win and a user cannot switch them off' };
    }
    case 'codex': {
      let text = '';
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        // unreadable: the pin cannot be confirmed
      }
      if (!hooksFeaturePinned(text, file)) return { ok: false, detail: 'managed hooks, but [features] hooks = true is missing: a user\'s features.hooks = false (or --disable hooks) switches them off', fix: reinstall };
      return { ok: true, detail: 'managed settings win: Codex runs them without the trust step, and [features] hooks = true stops a user switching hooks off' };
    }
    case 'gemini': {
      if (hooksConfig(readJson(file)).enabled !== true) return { ok: false, detail: 'hooksConfig.enabled is not pinned to true in the system settings: a user\'s hooksConfig.enabled = false switches every hook off', fix: reinstall };
      // hooksConfig.disabled is a union of every level: a user or project file can name one of loom's hooks.
      const off: string[] = [];
      for (const scope of ['user', 'project'] as const) {
        const f = target('gemini', scope, project, env).file;
        const disabled = hooksConfig(readJson(f)).disabled;
        if (Array.isArray(disabled)) for (const n of disabled) if (typeof n === 'string' && n.startsWith('loom-')) off.push(`${n} (${f})`);
      }
      if (off.length) return { ok: false, detail: `switched off by name in hooksConfig.disabled: ${off.join(', ')}`, fix: 'remove the loom-* names from hooksConfig.disabled in those files' };
      return { ok: true, detail: 'system settings win over a user\'s hooksConfig.enabled; a user can still switch one hook off by naming it in hooksConfig.disabled (none does here)' };
    }
    default:
      return { ok: true, detail: 'managed settings' };
  }
}
