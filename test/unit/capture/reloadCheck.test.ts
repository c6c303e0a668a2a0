import * as assert from 'node:assert/strict';
import { isReloadFromDisk } from '../../../src/core/capture/reloadCheck';

describe('isReloadFromDisk (a clean document: reloaded from disk, or its first edit)', () => {
  it('the buffer equal to the file is a reload', () => {
    assert.equal(isReloadFromDisk('a\nb\n', 'a\nb\n'), true);
  });
  it('the first edit after a save leaves the buffer different from the file: an edit', () => {
    assert.equal(isReloadFromDisk('a\nbX\n', 'a\nb\n'), false);
    assert.equal(isReloadFromDisk('a\none\ntwo\nthree\n', 'a\nb\n'), false);
  });
  it('a byte-order mark and the line-ending style the editor normalizes do not make a reload an edit', () => {
    assert.equal(isReloadFromDisk('a\nb\n', '\ufeffa\nb\n'), true);
    assert.equal(isReloadFromDisk('a\nb\n', 'a\r\nb\n'), true);
    assert.equal(isReloadFromDisk('a\r\nb\r\n', 'a\r\nb\r\n'), true);
  });
  it('a file that no longer exists cannot have been reloaded: the change is kept as an edit', () => {
    assert.equal(isReloadFromDisk('a\n', null), false);
  });
  it('a file that is not captured (binary, over the size cap, unreadable) is taken as reloaded, as before', () => {
    assert.equal(isReloadFromDisk('a\n', undefined), true);
  });
});
