import { promises as fs } from 'node:fs';
import path from 'node:path';
import { STATIC_TYPES } from './static-files';

/** The build's record (functions, origin, release): for the operator, never served. */
const BUILD_RECORD = 'build-info.json';
const MANIFEST = 'manifest.xml';
/** What a manifest built with a key carries in its page URL. */
const KEY_MARK = 'deployment_key=';
/** A public name: segments of letters, digits, `.`, `-`, `_`, none starting with a dot (no dotfiles, no odd spellings). */
const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

export interface PublicFileRules {
  /** The host's deployment key: the manifest is then private, and so is any settings file (xml, json) that holds the key. */
  deploymentKey?: string;
  /** Told of each file withheld for holding a key (a copy of a keyed manifest, say), for the operator. */
  onWithheld?: (name: string) => void;
}

/** Settings files, where a key would be a copy of the manifest's; code is checked for the marker only (a short key may occur in a bundle by chance). */
const SETTINGS = new Set(['.xml', '.json']);

/**
 * The allow-list of what the host serves from the built add-in: every regular file of the build
 * (no links, no dotfiles) of a type the host serves, except the build record, the manifest when
 * the host has a deployment key, and any file holding a deployment key. A request is served only
 * when its decoded path is exactly one of these names; every other spelling (a trailing slash,
 * another case, `;x`, an encoded slash or dot) is simply not on the list. The list is made again
 * when the build folder changes (a new build swaps the folder in, so its identity changes).
 */
export class PublicFiles {
  private listing: { stamp: string; files: Promise<Map<string, string>> } | undefined;

  constructor(
    private readonly root: string,
    private readonly rules: PublicFileRules = {},
  ) {}

  /** The file to send for `decodedPath` (`/taskpane.html`), or undefined: not public. */
  async lookup(decodedPath: string): Promise<string | undefined> {
    if (!decodedPath.startsWith('/')) return undefined;
    const files = await this.files();
    return files?.get(decodedPath.slice(1));
  }

  private async files(): Promise<Map<string, string> | undefined> {
    const root = path.resolve(this.root);
    const stat = await fs.stat(root).catch(() => undefined);
    if (!stat?.isDirectory()) return undefined;
    const stamp = `${stat.dev}:${stat.ino}:${stat.mtimeMs}`;
    if (this.listing?.stamp !== stamp) this.listing = { stamp, files: this.list(root) };
    return this.listing.files;
  }

  private async list(root: string): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
      // Dirent does not follow links: a link in the build is never served, wherever it points.
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      const name = path.relative(root, file).split(path.sep).join('/');
      if (!PLAIN_NAME.test(name) || !(path.extname(name).toLowerCase() in STATIC_TYPES)) continue;
      if (await this.isPrivate(name, file)) continue;
      out.set(name, file);
    }
    return out;
  }

  private async isPrivate(name: string, file: string): Promise<boolean> {
    const lower = name.toLowerCase();
    if (lower === BUILD_RECORD) return true;
    if (lower === MANIFEST && this.rules.deploymentKey !== undefined) return true;
    const text = await fs.readFile(file, 'latin1').catch(() => undefined);
    if (text === undefined) return true;
    const key = this.rules.deploymentKey;
    const holdsKey = text.includes(KEY_MARK) || (key !== undefined && SETTINGS.has(path.extname(lower)) && text.includes(key));
    // The manifest itself is expected to hold it; anything else is worth the operator's attention.
    if (holdsKey && lower !== MANIFEST) this.rules.onWithheld?.(name);
    return holdsKey;
  }
}
