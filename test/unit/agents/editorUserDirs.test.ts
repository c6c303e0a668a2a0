import * as assert from 'node:assert/strict';
import { editorUserDirs } from '../../../src/core/agents/registry/editorUserDirs';

describe('editorUserDirs (where editor-hosted agents keep their sessions)', () => {
  it('puts the running editor first, then every desktop flavour, code-server and the remote servers on Linux', () => {
    const dirs = editorUserDirs({ platform: 'linux', homeDir: '/home/u', env: {}, current: '/tmp/cs/User' });
    assert.deepEqual(
      dirs.map((d) => d.dir),
      [
        '/tmp/cs/User',
        '/home/u/.config/Code/User',
        '/home/u/.config/Code - Insiders/User',
        '/home/u/.config/Cursor/User',
        '/home/u/.config/VSCodium/User',
        '/home/u/.config/Windsurf/User',
        '/home/u/.local/share/code-server/User',
        '/home/u/.vscode-server/data/User',
        '/home/u/.vscode-remote/data/User',
        '/home/u/.cursor-server/data/User',
      ],
    );
    assert.equal(dirs[0].flavour, 'this editor');
  });

  it('honours XDG_CONFIG_HOME and XDG_DATA_HOME, and lists the running editor once', () => {
    const dirs = editorUserDirs({
      platform: 'linux',
      homeDir: '/home/u',
      env: { XDG_CONFIG_HOME: '/cfg', XDG_DATA_HOME: '/data' },
      current: '/cfg/Code/User',
    });
    assert.equal(dirs.filter((d) => d.dir === '/cfg/Code/User').length, 1);
    assert.equal(dirs[0].flavour, 'this editor');
    assert.ok(dirs.some((d) => d.dir === '/data/code-server/User'));
  });

  it('uses Application Support on macOS and %APPDATA% on Windows, comparing without case there', () => {
    assert.equal(
      editorUserDirs({ platform: 'darwin', homeDir: '/Users/u', env: {} })[0].dir,
      '/Users/u/Library/Application Support/Code/User',
    );
    const win = editorUserDirs({
      platform: 'win32',
      homeDir: 'C:\\Users\\u',
      env: { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' },
      current: 'c:\\users\\u\\appdata\\roaming\\code\\user',
    });
    assert.deepEqual(
      win.slice(0, 3).map((d) => d.dir),
      [
        'c:\\users\\u\\appdata\\roaming\\code\\user',
        'C:\\Users\\u\\AppData\\Roaming\\Code - Insiders\\User',
        'C:\\Users\\u\\AppData\\Roaming\\Cursor\\User',
      ],
    );
    assert.ok(win.every((d) => !d.dir.includes('/')));
  });
});
