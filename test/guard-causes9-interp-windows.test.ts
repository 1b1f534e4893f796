// Causes of a blind red-team round on interpreter escapes and PowerShell
// (round 9): IPython / Jupyter shell escapes, argv list forms (Perl's qw
// lists, globs, blocks and pipes, and the same forms in Python, Ruby, Node),
// the current folder as a PowerShell target, and aliases and functions a
// PowerShell line defines for itself. Each cause has its own commands: the
// dangerous ones with the decision and rule they must get, everyday
// look-alikes that must pass.
import { describe, expect, it } from 'vitest';
import { judge } from './guard-cause-suite';

type Case = [command: string, decision: 'deny' | 'ask', rule: string];
interface Cause {
  dangerous: Case[];
  everyday: string[];
}

const HOME = 'rm-recursive-home';
const ROOT = 'rm-recursive-project-root';
/** A notebook (nbformat 4) with these code cells and kernel, as one line of JSON. */
const notebook = (cells: string[], kernel?: string) =>
  JSON.stringify({ cells: cells.map((source) => ({ cell_type: 'code', source, metadata: {}, outputs: [], execution_count: null })), metadata: kernel ? { kernelspec: { name: kernel, language: kernel } } : {}, nbformat: 4, nbformat_minor: 5 });

const CAUSES: Record<string, Cause> = {
  'IPython and Jupyter shell escapes': {
    dangerous: [
      [`ipython -c '!rm -rf ~'`, 'deny', HOME],
      [`ipython3 -c '!!rm -rf /home/dev'`, 'deny', HOME],
      [`ipython -c 'out = !rm -rf ~'`, 'deny', HOME],
      [`ipython -c '%system rm -rf ~'`, 'deny', HOME],
      [`ipython -c '%sx rm -rf $HOME'`, 'deny', HOME],
      [`ipython -c '%sc -l listing=rm -rf ~'`, 'deny', HOME],
      [`ipython -c '%rm -rf ~'`, 'deny', HOME],
      [`ipython -c 'rm -rf ~'`, 'deny', HOME],
      [`ipython -c '%%bash\nrm -rf ~'`, 'deny', HOME],
      [`ipython -c '%%script sh\nrm -rf /home/dev'`, 'deny', HOME],
      [`ipython -c '%%perl\nsystem("rm", "-rf", $ENV{HOME})'`, 'deny', HOME],
      [`ipython -c 'get_ipython().system("rm -rf ~")'`, 'deny', HOME],
      [`ipython -c 'get_ipython().getoutput("rm -rf ~")'`, 'deny', HOME],
      [`ipython -c 'get_ipython().run_line_magic("system", "rm -rf ~")'`, 'deny', HOME],
      [`ipython -c 'ip = get_ipython(); ip.system("rm -rf ~")'`, 'deny', HOME],
      [`ipython -c 'from IPython import get_ipython; get_ipython().run_cell_magic("bash", "", "rm -rf ~\\n")'`, 'deny', HOME],
      [`ipython -c ';os.system rm -rf ~'`, 'deny', HOME],
      [`ipython -c '%time os.system("rm -rf ~")'`, 'deny', HOME],
      [`ipython -c "import os; os.system('rm -rf ~')"`, 'deny', HOME],
      [`python3 -m IPython -c '!rm -rf ~'`, 'deny', HOME],
      [`echo '!rm -rf ~' | ipython`, 'deny', HOME],
      [`ipython <<'EOF'\nimport os\n!rm -rf ~\nEOF`, 'deny', HOME],
      [`ipython -c 'for d in ["a", "b"]:\n    !rm -rf {d}'`, 'ask', 'rm-unknown-target'],
      [`printf '%s' '${notebook(['!rm -rf ~'])}' > /tmp/x.ipynb && jupyter nbconvert --execute --to notebook /tmp/x.ipynb`, 'deny', HOME],
      [`cat > nb.ipynb <<'EOF'\n${notebook(['%%bash\nrm -rf ~\n'])}\nEOF\njupyter execute nb.ipynb`, 'deny', HOME],
      [`echo '${notebook(['import shutil\n', 'shutil.rmtree("/home/dev")'])}' > a.ipynb; papermill a.ipynb out.ipynb`, 'deny', HOME],
      [`echo '${notebook(['rm -rf ~'], 'bash')}' > b.ipynb && jupyter nbconvert --to notebook --execute b.ipynb`, 'deny', HOME],
    ],
    everyday: [
      `ipython -c 'print(1)'`,
      `ipython -c '!ls -la'`,
      `ipython -c '!git status'`,
      `ipython -c '%timeit sum(range(10))'`,
      `ipython -c '%%timeit\nsum(range(100))'`,
      `ipython -c '%pip install numpy'`,
      `ipython -c 'files = !ls *.py'`,
      `ipython -c 'x = 3; rm = 1; print(rm - x)'`,
      `ipython -c '!rm -rf build'`,
      `ipython -c '%%writefile clean.sh\nrm -rf ~'`,
      `ipython -c 'for p in ["a", "b"]:\n    !pip install {p}'`,
      `jupyter nbconvert --to notebook --execute nb.ipynb`,
      `jupyter nbconvert --to html nb.ipynb`,
      `echo '${notebook(['print(1)'])}' > c.ipynb && jupyter nbconvert --to notebook --execute c.ipynb`,
      `echo '${notebook(['!rm -rf ~'])}' > d.ipynb && jupyter nbconvert --to html d.ipynb`,
    ],
  },
  'argv list forms: Perl lists, globs, blocks and pipes; the same forms in Python, Ruby and Node': {
    dangerous: [
      [`perl -le 'system qw(rm -rf), glob "~"'`, 'deny', HOME],
      [`perl -e 'system(qw(rm -rf), $ENV{"HOME"})'`, 'deny', HOME],
      [`perl -e 'system("rm", "-rf", $ENV{HOME})'`, 'deny', HOME],
      [`perl -e 'my @a = qw(rm -rf); system @a, $ENV{HOME}'`, 'deny', HOME],
      [`perl -e 'exec {"rm"} "rm", "-rf", "~"'`, 'deny', HOME],
      [`perl -e 'system { "rm" } qw(rm -rf), $ENV{HOME}'`, 'deny', HOME],
      [`perl -e 'exec qw(rm -rf ~)'`, 'deny', HOME],
      [`perl -e 'system "rm", "-rf", (getpwuid($<))[7]'`, 'deny', HOME],
      [`perl -e 'qx{rm -rf ~}'`, 'deny', HOME],
      [`perl -e '\`rm -rf ~\`'`, 'deny', HOME],
      [`perl -e 'open(my $f, "|-", "rm", "-rf", $ENV{HOME})'`, 'deny', HOME],
      [`perl -e 'open(my $f, "-|", "rm -rf ~")'`, 'deny', HOME],
      [`perl -MFile::Path -e 'remove_tree(glob "~")'`, 'deny', HOME],
      [`perl -MFile::Path=rmtree -e 'rmtree($ENV{HOME})'`, 'deny', HOME],
      [`perl -e 'use File::Path qw(rmtree); rmtree glob("~")'`, 'deny', HOME],
      [`perl -e 'unlink glob "~/*"'`, 'deny', 'modify-hook-settings'],
      [`python3 -c 'import subprocess, os; subprocess.run(["rm","-rf",os.path.expanduser("~")])'`, 'deny', HOME],
      [`python3 -c 'import shutil; from pathlib import Path; shutil.rmtree(Path.home())'`, 'deny', HOME],
      [`python3 -c 'import pwd, os, shutil; shutil.rmtree(pwd.getpwuid(os.getuid()).pw_dir)'`, 'deny', HOME],
      [`ruby -e 'system("rm", "-rf", Dir.home)'`, 'deny', HOME],
      [`ruby -e 'require "fileutils"; FileUtils.rm_rf(Dir.home)'`, 'deny', HOME],
      [`ruby -e 'require "etc"; require "fileutils"; FileUtils.rm_rf(Etc.getpwuid.dir)'`, 'deny', HOME],
      [`node -e 'require("child_process").execFileSync("rm", ["-rf", require("os").homedir()])'`, 'deny', HOME],
      [`node -e 'const os=require("os"); require("fs").rmSync(os.homedir(), {recursive:true})'`, 'deny', HOME],
      [`node -e 'const os=require("os"); require("fs").rmSync(os.userInfo().homedir, {recursive:true})'`, 'deny', HOME],
    ],
    everyday: [
      `perl -e 'system("make", "test")'`,
      `perl -e 'system qw(git status)'`,
      `perl -e 'exec {"make"} "make", "test"'`,
      `perl -e 'print qx{git status}'`,
      `perl -e 'unlink glob "*.tmp"'`,
      `perl -MFile::Path=rmtree -e 'rmtree("build")'`,
      `perl -e 'open(my $f, "-|", "git log -1") or die; print <$f>'`,
      `perl -le 'print for glob "~/*.txt"'`,
      `python3 -c 'import shutil; shutil.rmtree("build")'`,
      `ruby -e 'require "fileutils"; FileUtils.rm_rf("tmp/cache")'`,
      `node -e 'require("fs").rmSync("dist", {recursive:true})'`,
      `node -e 'console.log(require("os").userInfo().homedir)'`,
    ],
  },
  'PowerShell: the current folder as a target': {
    dangerous: [
      [`pwsh -c 'Remove-Item -Recurse -Force -Path (Get-Location)'`, 'deny', ROOT],
      [`pwsh -c 'Remove-Item -Recurse -Force $PWD'`, 'deny', ROOT],
      [`pwsh -c 'rm -r -fo $PWD.Path'`, 'deny', ROOT],
      [`pwsh -c 'Remove-Item -Recurse -Force (pwd)'`, 'deny', ROOT],
      [`pwsh -c 'Remove-Item -Recurse -Force (gl)'`, 'deny', ROOT],
      [`pwsh -c 'Remove-Item -Recurse -Force $(Get-Location)'`, 'deny', ROOT],
      [`pwsh -c 'Remove-Item -Recurse -Force (Get-Location).Path'`, 'deny', ROOT],
      [`pwsh -c 'Remove-Item -LiteralPath $pwd -Recurse'`, 'deny', ROOT],
      [`pwsh -c 'Remove-Item -Recurse -Force (Resolve-Path .)'`, 'deny', ROOT],
      [`pwsh -c 'Get-Location | Remove-Item -Recurse -Force'`, 'deny', ROOT],
      [`powershell -Command "Remove-Item -Recurse -Force -Path (Get-Location)"`, 'deny', ROOT],
      [`Remove-Item -Recurse -Force (Get-Location)`, 'deny', ROOT],
      [`pwsh -c 'Remove-Item -Recurse -Force $PSScriptRoot/..'`, 'deny', HOME],
      [`pwsh -c 'Set-Location ~; Remove-Item -Recurse -Force (Get-Location)'`, 'deny', HOME],
      [`pwsh -c 'cd ..; Remove-Item -Recurse -Force $PWD'`, 'deny', HOME],
      [`pwsh -c 'Resolve-Path ~ | Remove-Item -Recurse -Force'`, 'deny', HOME],
    ],
    everyday: [
      `pwsh -c 'Remove-Item -Recurse ./dist'`,
      `pwsh -c 'Remove-Item -Recurse -Force ./node_modules'`,
      `pwsh -c 'Get-Location'`,
      `pwsh -c 'Write-Host (Get-Location)'`,
      `pwsh -c 'Get-Location | Select-Object -ExpandProperty Path'`,
      `pwsh -c 'Remove-Item -Recurse -Force (Join-Path (Get-Location) "dist")'`,
      `pwsh -c 'Remove-Item -Recurse -Force "$PWD/dist"'`,
      `pwsh -c 'Remove-Item -Recurse -Force "$PSScriptRoot/dist"'`,
      `pwsh -c 'Get-ChildItem -Recurse *.tmp | Remove-Item'`,
    ],
  },
  'PowerShell: aliases and functions defined on the line': {
    dangerous: [
      [`pwsh -c 'sal x Remove-Item; x -r -fo $HOME'`, 'deny', HOME],
      [`pwsh -c 'Set-Alias x Remove-Item; x -Recurse -Force ~'`, 'deny', HOME],
      [`pwsh -c 'Set-Alias -Name x -Value Remove-Item; x -Recurse -Force $HOME'`, 'deny', HOME],
      [`pwsh -c 'New-Alias -Name x -Value Remove-Item; x -Recurse -Force $HOME'`, 'deny', HOME],
      [`pwsh -c 'nal x ri; x -r -fo $HOME'`, 'deny', HOME],
      [`pwsh -c 'Set-Item alias:x Remove-Item; x -r -fo ~'`, 'deny', HOME],
      [`pwsh -c 'New-Item -Path alias:x -Value Remove-Item; x -r -fo $HOME'`, 'deny', HOME],
      [`pwsh -c 'sal a Remove-Item; sal b a; b -r -fo $HOME'`, 'deny', HOME],
      [`pwsh -c 'sal a Remove-Item; sal b a; sal c b; sal d c; sal e d; sal f e; sal g f; g -r -fo ~'`, 'deny', HOME],
      [`pwsh -c 'sal x Remove-Item; & x -r -fo $HOME'`, 'deny', HOME],
      [`pwsh -c 'sal x Remove-Item; Get-ChildItem ~ | x -Recurse -Force'`, 'deny', HOME],
      [`pwsh -c 'sal x Invoke-Expression; x "Remove-Item -Recurse -Force ~"'`, 'deny', HOME],
      [`pwsh -c 'function x { Remove-Item @args }; x -Recurse -Force $HOME'`, 'deny', HOME],
      [`pwsh -c 'function Clean { param($p) Remove-Item -Recurse -Force $p }; Clean $HOME'`, 'deny', HOME],
      [`pwsh -c 'function Clean($p) { Remove-Item -Recurse -Force $p }; Clean -p $HOME'`, 'deny', HOME],
      [`pwsh -c 'function x { Remove-Item -Recurse -Force $args[0] }; x ~'`, 'deny', HOME],
      [`pwsh -c '\${function:x} = { Remove-Item -Recurse -Force $args }; x $HOME'`, 'deny', HOME],
      [`pwsh -c 'Set-Item -Path function:x -Value { Remove-Item -Recurse -Force ~ }; x'`, 'deny', HOME],
      [`sal x Remove-Item; x -r -fo $HOME`, 'deny', HOME],
      [`pwsh -c '& { Remove-Item -Recurse -Force $HOME }'`, 'deny', HOME],
      [`pwsh -EncodedCommand ${Buffer.from('sal x Remove-Item; x -r -fo $HOME', 'utf16le').toString('base64')}`, 'deny', HOME],
    ],
    everyday: [
      `pwsh -c 'Set-Alias ll Get-ChildItem'`,
      `pwsh -c 'Set-Alias ll Get-ChildItem; ll -Force'`,
      `pwsh -c 'function b { npm run build }; b'`,
      `pwsh -c '& { npm test }'`,
      `pwsh -c 'function Clean { param($p) Remove-Item -Recurse -Force $p }; Clean ./build'`,
      `pwsh -c 'sal x Remove-Item; x -Recurse ./out'`,
      `pwsh -c 'New-Alias -Name g -Value git; g status'`,
      `pwsh -c 'function Test-All { npm test @args }; Test-All -- --watch=false'`,
    ],
  },
};

describe('causes of a blind red-team round on interpreters and Windows (round 9)', () => {
  for (const [cause, c] of Object.entries(CAUSES)) {
    describe(cause, () => {
      it('holds at least 6 dangerous commands and 3 everyday look-alikes', () => {
        expect(c.dangerous.length).toBeGreaterThanOrEqual(6);
        expect(c.everyday.length).toBeGreaterThanOrEqual(3);
      });
      it('stops the dangerous ones with their rule', () => {
        const wrong = c.dangerous
          .map(([cmd, decision, rule]) => [cmd, decision, rule, judge(cmd)] as const)
          .filter(([, decision, rule, r]) => r.decision !== decision || !r.hits.some((h) => h.rule === rule && h.action === decision))
          .map(([cmd, decision, rule, r]) => `${cmd}: wanted ${decision} ${rule}, got ${r.decision} ${r.hits.map((h) => h.rule).join(',')}`);
        expect(wrong).toEqual([]);
      });
      it('allows the everyday look-alikes', () => {
        expect(c.everyday.map((cmd) => [cmd, judge(cmd)] as const).filter(([, r]) => r.decision !== 'allow').map(([cmd, r]) => `${cmd} -> ${r.decision} ${r.reason}`)).toEqual([]);
      });
    });
  }
});
