import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runInProcess } from './in-process.js';
import { tempDir } from '../support/temp-dir.js';
import { describeWith } from '../support/outside-tools.js';
import { describeWithSqlite, hasSqlite } from '../support/sqlite-node.js';
import { CRONTAB, SILENT_SYSTEMCTL, standIn } from '../support/schedule-stand-ins.js';

/**
 * lk schedule against stand-ins first on PATH (and nothing else on it): a crontab that keeps its table in a file, a
 * systemctl that answers or does not. Every test's home is a temp folder: the machine's own crontab and units are
 * never touched.
 */

/** A key no other text holds: found anywhere lk writes, it leaked. */
const KEY = `lk_${'Sched0Leak0Marker'.padEnd(49, 'Q')}`;

interface Home {
  root: string;
  bin: string;
  table: string;
  env: NodeJS.ProcessEnv;
}

/** A home with the key stored in its config (as lk auth login keeps it) and a stand-in crontab; `systemctl` as asked. */
function home(systemctl: 'answers' | 'silent' | 'absent', crontab = true): Home {
  const root = tempDir('lk-schedule-');
  const bin = join(root, 'bin');
  mkdirSync(bin);
  const table = join(root, 'crontab.txt');
  if (crontab) standIn(bin, 'crontab', CRONTAB);
  if (systemctl !== 'absent') {
    standIn(
      bin,
      'systemctl',
      systemctl === 'answers'
        ? `fs.appendFileSync(${JSON.stringify(join(root, 'systemctl.log'))}, process.argv.slice(2).join(' ') + '\\n');`
        : SILENT_SYSTEMCTL,
    );
  }
  const config = join(root, 'config');
  mkdirSync(join(config, 'lk'), { recursive: true, mode: 0o700 });
  writeFileSync(
    join(config, 'lk', 'config.json'),
    JSON.stringify({ profiles: { default: { baseUrl: 'https://lk.example.org', key: KEY }, work: { baseUrl: 'https://lk.example.org', key: KEY } } }),
    { mode: 0o600 },
  );
  return {
    root,
    bin,
    table,
    env: { PATH: bin, HOME: root, XDG_CONFIG_HOME: config, LK_CACHE_DIR: join(root, 'cache'), CRONTAB_FILE: table, TZ: 'UTC' },
  };
}

const lk = (h: Home, args: string[], env: NodeJS.ProcessEnv = {}) => runInProcess(['schedule', ...args], { env: { ...h.env, ...env } });

/** Every file under the home but the config (which holds the key, as lk auth login keeps it), as text. */
function writtenFiles(h: Home): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (path === join(h.root, 'config', 'lk')) return [];
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  return walk(h.root);
}

// sync and notify jobs run the mirror, which needs node:sqlite (Node 22.13): on an older Node they are refused (below).
describeWithSqlite('lk schedule with crontab only (systemctl absent)', () => {
  it('adds one marked line under flock, lists it, replaces it on a second add, and removes exactly it', async () => {
    const h = home('absent');
    const mine = 'MAILTO=me@example.org\n# my own jobs\n0 5 * * * /usr/local/bin/backup-photos # lk schedule? no, mine\n';
    writeFileSync(h.table, mine);

    const added = await lk(h, ['add', 'sync', '--every', '30m']);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/Added to your crontab: lk sync every 30m \(profile default\)/);
    const line = readFileSync(h.table, 'utf8')
      .split('\n')
      .find((each) => each.includes('# lk schedule sync'))!;
    expect(line).toMatch(/^\d{1,2}-59\/30 \* \* \* \* LK_SCHEDULE_JOB=sync .*\bflock -n \S+\/cache\/schedule\/lk-sync\.lock /);
    expect(line).toContain(`${process.execPath} `);
    expect(line).toMatch(/bin\/lk\.cjs sync -q --profile default >\/dev\/null # lk schedule sync --every 30m --profile default$/);

    const listed = await lk(h, ['list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^sync \(profile default\), every 30m, by cron\n {2}next run: .+\(in .+\)\n {2}last run: not yet\n$/);

    // Again, another interval: replaced, not added twice; another profile's sync is a job of its own.
    expect((await lk(h, ['add', 'sync', '--every', '1h'])).code).toBe(0);
    expect((await runInProcess(['--profile', 'work', 'schedule', 'add', 'sync'], { env: h.env })).code).toBe(0);
    const table = readFileSync(h.table, 'utf8');
    expect(table.match(/# lk schedule sync --every \S+ --profile default$/gm)).toEqual(['# lk schedule sync --every 1h --profile default']);
    expect(table).toContain('LK_SCHEDULE_JOB=work-sync');
    expect(table.startsWith(mine)).toBe(true);
    const json = JSON.parse((await lk(h, ['list', '--json'])).stdout) as { job: string; profile: string; every: string; scheduler: string }[];
    expect(json.map(({ job, profile, every, scheduler }) => `${job} ${profile} ${every} ${scheduler}`)).toEqual([
      'sync default 1h cron',
      'sync work 1h cron',
    ]);

    const removed = await lk(h, ['remove', 'sync']);
    expect(removed.code).toBe(0);
    expect(removed.stderr).toMatch(/removed the sync job of profile default: its crontab line/);
    expect(readFileSync(h.table, 'utf8')).toBe(`${mine}${table.split('\n').find((each) => each.includes('--profile work'))}\n`);
    const again = await lk(h, ['remove', 'sync']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/profile default has no sync job/);
  });

  it("a job's run records its exit status, which list shows as its last result", async () => {
    const h = home('absent');
    expect((await lk(h, ['add', 'backup', '--dir', join(h.root, 'backup')])).code).toBe(0);
    // The job's lk, as its line starts it (LK_SCHEDULE_JOB set): here a run that fails for want of a server.
    const run = await runInProcess(['config', 'get', 'no-such-setting'], { env: { ...h.env, LK_SCHEDULE_JOB: 'backup' } });
    expect(run.code).toBe(2);
    const listed = await lk(h, ['list']);
    expect(listed.stdout).toMatch(
      /^backup \(profile default\), every 1d, by cron\n {2}next run: .+\n {2}last run: exit 2, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\n$/,
    );
  });

  it('never writes the key: not in the crontab, its lock or state files, nor in what lk says or the tools get', async () => {
    const h = home('absent');
    const said: string[] = [];
    for (const args of [['add', 'sync'], ['add', 'notify', '--print'], ['add', 'backup', '--dir', 'bk'], ['list'], ['list', '--json']]) {
      const result = await lk(h, args, { LK_SCHEDULE_JOB: 'sync' });
      expect(result.code, result.stderr).toBe(0);
      said.push(result.stdout, result.stderr);
    }
    const files = writtenFiles(h);
    expect(files).toContain(h.table);
    expect(files).toContain(join(h.root, 'cache', 'schedule', 'lk-sync.last'));
    for (const file of files) expect(readFileSync(file, 'utf8'), file).not.toContain(KEY.slice(3));
    for (const text of said) expect(text).not.toContain(KEY.slice(3));
  });

  it('names the key file when LK_API_KEY_FILE holds the key, and refuses a key only in LK_API_KEY (exit 3)', async () => {
    const h = home('absent');
    const keyFile = join(h.root, 'key');
    writeFileSync(keyFile, `${KEY}\n`, { mode: 0o600 });
    const env = { LK_API_KEY_FILE: keyFile, LK_BASE_URL: 'https://other.example.org' };
    expect((await runInProcess(['--profile', 'elsewhere', 'schedule', 'add', 'sync'], { env: { ...h.env, ...env } })).code).toBe(0);
    const line = readFileSync(h.table, 'utf8');
    expect(line).toContain(`LK_API_KEY_FILE=${keyFile} `);
    expect(line).toContain('LK_BASE_URL=https://other.example.org ');
    expect(line).not.toContain(KEY.slice(3));

    const before = readFileSync(h.table, 'utf8');
    const refused = await runInProcess(['--profile', 'elsewhere', 'schedule', 'add', 'notify'], {
      env: { ...h.env, LK_API_KEY: KEY, LK_BASE_URL: 'https://other.example.org' },
    });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^lk: the key comes only from LK_API_KEY here, which a scheduled job would not have/);
    expect(refused.stderr).not.toContain(KEY.slice(3));
    expect(readFileSync(h.table, 'utf8')).toBe(before);
  });

  it.each([
    [['add', 'sync', '--every', '5m'], /--every 5m is too often for sync: at most every 15m/],
    [
      ['add', 'backup', '--every', '30m', '--dir', '/tmp/x'],
      /--every 30m is too often for backup: at most every 1h \(the API gives one export an hour\)/,
    ],
    [['add', 'notify', '--every', '45m'], /invalid --every "45m": a job runs at steady times of the day/],
    [['add', 'sync', '--every', 'often'], /invalid --every "often"/],
    [['add', 'sync', '--every', '5h'], /invalid --every "5h"/],
    [['add', 'backup'], /backup needs --dir DIR/],
    [['add', 'sync', '--dir', '/tmp/x'], /--dir is for backup only/],
    [['add', 'cleanup'], /no job "cleanup": lk schedule knows sync, backup, notify/],
    [['remove', 'cleanup'], /no job "cleanup"/],
  ])('refuses %j with exit 2, nothing installed', async (args, message) => {
    const h = home('answers');
    const result = await lk(h, args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(existsSync(h.table)).toBe(false);
    expect(existsSync(join(h.root, 'systemctl.log'))).toBe(false);
    expect(existsSync(join(h.root, 'config', 'systemd'))).toBe(false);
  });

  it('refuses a profile whose name cannot be part of a unit name (exit 2)', async () => {
    const h = home('absent');
    const result = await runInProcess(['--profile', 'my work', 'schedule', 'add', 'sync'], {
      env: { ...h.env, LK_BASE_URL: 'https://lk.example.org', LK_API_KEY_FILE: join(h.root, 'nokey') },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/profile "my work" cannot be scheduled/);
    expect(existsSync(h.table)).toBe(false);
  });

  it('with neither systemd nor crontab: says so and prints the line to add by hand (exit 1)', async () => {
    const h = home('silent', false);
    const result = await lk(h, ['add', 'sync']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^\S+ \* \* \* \* LK_SCHEDULE_JOB=sync .* # lk schedule sync --every 1h --profile default\n$/);
    expect(result.stderr).toMatch(
      /^lk: neither systemd \(systemctl --user does not answer\) nor crontab is on this machine: nothing was installed\n/,
    );
    // --print asks only to be shown: the same line, exit 0.
    expect((await lk(h, ['add', 'sync', '--print'])).code).toBe(0);
  });
});

describeWithSqlite('lk schedule with systemd (a systemctl that answers)', () => {
  it('installs lk-NAME.service and .timer in $XDG_CONFIG_HOME/systemd/user, enables the timer; remove takes both away', async () => {
    const h = home('answers');
    const added = await runInProcess(['--profile', 'work', 'schedule', 'add', 'notify'], { env: h.env });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^Installed lk-work-notify\.timer: lk notify every 30m \(profile work\)/);
    const units = join(h.root, 'config', 'systemd', 'user');
    expect(readdirSync(units).sort()).toEqual(['lk-work-notify.service', 'lk-work-notify.timer']);
    const timer = readFileSync(join(units, 'lk-work-notify.timer'), 'utf8');
    expect(timer).toContain('\nOnCalendar=*-*-* *:00/30:00\nRandomizedDelaySec=30m\nFixedRandomDelay=true\nPersistent=true\n');
    expect(readFileSync(join(units, 'lk-work-notify.service'), 'utf8')).toMatch(
      /\nType=oneshot\nEnvironment=LK_SCHEDULE_JOB=work-notify\n.*ExecStart=\S+ \S+bin\/lk\.cjs notify --sync -q --profile work\n/s,
    );
    expect(readFileSync(join(h.root, 'systemctl.log'), 'utf8')).toContain('--user enable lk-work-notify.timer\n');
    expect(existsSync(h.table)).toBe(false);
    for (const file of writtenFiles(h)) expect(readFileSync(file, 'utf8'), file).not.toContain(KEY.slice(3));

    const listed = JSON.parse((await lk(h, ['list', '--json'])).stdout) as { job: string; profile: string; scheduler: string }[];
    expect(listed.map(({ job, profile, scheduler }) => `${job} ${profile} ${scheduler}`)).toEqual(['notify work systemd']);

    const removed = await runInProcess(['--profile', 'work', 'schedule', 'remove', 'notify'], { env: h.env });
    expect(removed.code).toBe(0);
    expect(readdirSync(units)).toEqual([]);
    expect(readFileSync(join(h.root, 'systemctl.log'), 'utf8')).toContain('--user disable --now lk-work-notify.timer\n');
  });
});

describeWith(['systemd-analyze'], 'lk schedule add --print: units systemd accepts', () => {
  it('backup every 1h: the printed lk-backup.service and .timer pass systemd-analyze verify', async () => {
    const h = home('answers');
    const backup = join(h.root, 'backup');
    const printed = await lk(h, ['add', 'backup', '--every', '1h', '--dir', backup, '--print']);
    expect(printed.code, printed.stderr).toBe(0);
    expect(existsSync(join(h.root, 'config', 'systemd'))).toBe(false);
    const files = printed.stdout.split(/^# (\/\S+)\n/m).slice(1);
    const check = tempDir('lk-units-');
    const names: string[] = [];
    for (let at = 0; at < files.length; at += 2) {
      const name = files[at]!.split('/').pop()!;
      names.push(name);
      writeFileSync(join(check, name), files[at + 1]!);
    }
    expect(names).toEqual(['lk-backup.service', 'lk-backup.timer']);
    expect(files[1]).toContain(`export --git ${backup} -q --profile default\n`);
    const verify = spawnSync('systemd-analyze', ['verify', '--user', ...names.map((name) => join(check, name))], {
      encoding: 'utf8',
      // A user manager's runtime folder of the test's own: systemd-analyze sets one up there and checks the units.
      env: { ...process.env, XDG_CONFIG_HOME: join(check, 'none'), XDG_RUNTIME_DIR: tempDir('lk-runtime-') },
    });
    expect(verify.stderr).toBe('');
    expect(verify.status).toBe(0);
  });
});

describe('lk schedule and the Node it runs its jobs with', () => {
  it('a sync or notify job needs node:sqlite in this Node: refused on one without it (exit 1, naming the Node), nothing installed; a backup job never', async () => {
    const h = home('absent');
    for (const job of ['sync', 'notify']) {
      const result = await lk(h, ['add', job]);
      if (hasSqlite) expect(result.code, result.stderr).toBe(0);
      else {
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(new RegExp(`^lk: lk schedule add ${job} \\(its job runs lk ${job} with this Node\\) needs Node 22\\.13`));
      }
    }
    expect(existsSync(h.table)).toBe(hasSqlite);
    expect((await lk(h, ['add', 'backup', '--dir', join(h.root, 'backup')])).code).toBe(0);
    expect(readFileSync(h.table, 'utf8')).toContain('# lk schedule backup --every 1d --profile default');
  });
});
