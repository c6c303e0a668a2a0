/**
 * Heuristics for "key = value" secrets (dotenv lines, shell exports, YAML/JSON fields, code
 * literals, CLI flags): is the key secret-named, and does the value look like a real secret rather
 * than a placeholder, a variable reference or an ordinary word?
 */
import { shannonEntropy } from './shannonEntropy';

/**
 * How a key name relates to secrets:
 * - `password`: human-chosen secrets (password, passwd, pwd, pass, passphrase, secret, credentials);
 * - `token`: machine-generated secrets (token, auth, pat, dsn, api/access/private/secret…-key);
 * - `weak`: some other `…Key` (STRIPE_KEY, key) — only very random values count;
 * - `none`: not secret-named.
 */
export type KeyStrength = 'password' | 'token' | 'weak' | 'none';

/**
 * Where the value came from:
 * - `dotenv`: `KEY=value` with an UPPER_SNAKE or dotted key and no spaces (.env, shell, properties);
 *   unquoted values are literals;
 * - `code`: any other assignment (`key: value`, `key = value`, `key => value`);
 * - `flag`: a command-line flag (`--password value`);
 * - `field`: a string field of a JSON-ish object (the value is a literal).
 */
export type AssignmentStyle = 'dotenv' | 'code' | 'flag' | 'field';

export interface AssignmentContext {
  /** The value was written inside quotes (a string literal). */
  readonly quoted: boolean;
  readonly style: AssignmentStyle;
}

const passwordWords = new Set(['password', 'passwd', 'passphrase', 'pwd', 'pass', 'pw', 'secret', 'credential', 'credentials', 'creds']);
const tokenWords = new Set(['token', 'apikey', 'pat', 'dsn', 'auth', 'secretkey', 'privatekey', 'accesskey', 'authkey', 'apitoken']);
/** Words before a trailing `key` that make it a credential (API_KEY, SIGNING_KEY, client-key…). */
const keyQualifiers = new Set([
  'api',
  'access',
  'secret',
  'private',
  'signing',
  'sign',
  'encryption',
  'encrypt',
  'enc',
  'master',
  'auth',
  'client',
  'app',
  'application',
  'license',
  'licence',
  'service',
  'account',
  'subscription',
  'admin',
  'consumer',
  'shared',
  'hmac',
  'jwt',
  'webhook',
  'integration',
  'server',
  'deploy',
  'ssh',
  'gpg',
  'pgp',
  'rsa',
  'aes',
  'cipher',
  'crypto',
  'session',
  'cookie',
  'write',
  'management',
  'root',
  'personal',
  'x',
]);
const suffixPassword = ['password', 'passwd', 'passphrase', 'secret'];
const suffixToken = ['token', 'apikey', 'secretkey', 'privatekey', 'accesskey', 'authkey', 'secretkeybase'];

/** Values that are obviously not real secrets (compared after lower-casing and dropping non-alphanumerics). */
const placeholderWords = new Set([
  'password',
  'passwd',
  'pass',
  'pwd',
  'secret',
  'secrets',
  'token',
  'apikey',
  'key',
  'changeme',
  'changeit',
  'default',
  'none',
  'null',
  'nil',
  'undefined',
  'true',
  'false',
  'empty',
  'string',
  'str',
  'text',
  'value',
  'required',
  'optional',
  'redacted',
  'hidden',
  'masked',
  'secretkey',
  'mysecret',
  'mypassword',
  'supersecret',
  'admin',
  'root',
  'user',
  'username',
  'guest',
  'foo',
  'bar',
  'baz',
  'foobar',
  'hello',
  'world',
  'helloworld',
  'qwerty',
  'abc123',
  '123456',
  '12345678',
  'letmein',
  'notasecret',
  'sensitive',
  'bytes',
  'int',
  'bool',
  'boolean',
  'number',
  'any',
  'unknown',
  'object',
  'void',
  'never',
  'self',
  'this',
]);
const placeholderAnywhere = /your|example|placeholder|changeme|change[_-]me|replace[_-]?me|redacted|dummy|lorem|\[redacted/;
const placeholderWord = /(?:^|[^a-z])(?:test|sample|fake|todo|fixme|here|xxx+|tbd|none|demo)(?:[^a-z]|$)/;
const templateStart = /^(?:\$\{|\$\(|\$[A-Za-z_]|\{\{|\{%|<%|#\{|%\(|%[A-Za-z_]+%|@\{|\{[A-Za-z_][\w.]*\}$)/;
const envReference =
  /^(?:process\.env|import\.meta\.env|os\.environ|os\.getenv|getenv\(|env\(|env\.|ENV\[|System\.getenv|Environment\.GetEnvironmentVariable|secrets\.|vars\.|settings\.|config\.|credentials\.|std::env|dotenv)/i;

/** Cheap pre-check: every secret-named key contains one of these (case-insensitive). */
const mayNameSecret = /pass|pwd|pw|secret|token|key|auth|cred|dsn|pat/i;

/** Memo of {@link keyWords}: the same few key names come back on every line of a config or log. */
const keyWordsCache = new Map<string, readonly string[]>();

/** Splits a key name into lower-case words: `X-API-Key` → x api key, `dbPassword` → db password. */
export function keyWords(key: string): readonly string[] {
  const cached = keyWordsCache.get(key);
  if (cached) return cached;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
  if (keyWordsCache.size >= 2048) keyWordsCache.clear();
  keyWordsCache.set(key, words);
  return words;
}

/** Classifies a key/flag/field name (see {@link KeyStrength}). */
export function classifyKeyName(key: string): KeyStrength {
  if (!mayNameSecret.test(key)) return 'none';
  const words = keyWords(key);
  if (words.length === 0) return 'none';
  if (words.some((w) => w === 'public' || w === 'publishable' || w === 'pub')) return 'none';
  const last = words[words.length - 1];
  const prev = words.length > 1 ? words[words.length - 2] : undefined;
  const joined = words.join('');
  if (joined.endsWith('secretkeybase')) return 'token';
  if (passwordWords.has(last)) return 'password';
  if (tokenWords.has(last)) return 'token';
  if (last === 'key') {
    if (prev !== undefined && (keyQualifiers.has(prev) || suffixToken.some((s) => prev.endsWith(s)))) return 'token';
    return 'weak';
  }
  if (suffixPassword.some((s) => last.endsWith(s))) return 'password';
  if (suffixToken.some((s) => last.endsWith(s))) return 'token';
  return 'none';
}

/** Fewer than `n` distinct characters (`xxxx`, `0000`, `abab`). */
function fewDistinct(s: string, n: number): boolean {
  const seen: string[] = [];
  for (let i = 0; i < s.length; i++) {
    if (!seen.includes(s[i])) {
      seen.push(s[i]);
      if (seen.length >= n) return false;
    }
  }
  return true;
}

/** Placeholders, templates and variable references that must not be redacted (`changeme`, `<your-key>`, `${VAR}`, `process.env.X`, `xxxx`). */
export function isPlaceholderValue(value: string): boolean {
  const v = value.trim();
  if (v.length === 0) return true;
  if (v.includes('[REDACTED')) return true;
  if (templateStart.test(v) || envReference.test(v)) return true;
  if (/^<[^<>]*>?$/.test(v) || /^\[[^[\]]*\]$/.test(v)) return true;
  const lower = v.toLowerCase();
  const compact = lower.replace(/[^a-z0-9]/g, '');
  if (placeholderWords.has(compact) || placeholderWords.has(compact.replace(/\d+$/, ''))) return true;
  if (fewDistinct(compact, 4)) return true;
  if (placeholderAnywhere.test(lower) || placeholderWord.test(lower)) return true;
  if (/(?:^|[^a-z])(?:my|the)[_-]?(?:[a-z]{1,20}[_-]?)?(?:key|token|secret|password|pass)(?:[^a-z]|$)/.test(lower)) return true;
  return false;
}

/** Filesystem paths (the value of `…_CREDENTIALS=/path/to/file.json`). */
function looksLikePath(v: string): boolean {
  return (
    /^(?:~|\.{1,2})?\/[\w.@/-]*$/.test(v) ||
    /^[A-Za-z]:[\\/]/.test(v) ||
    /^[\w.-]+(?:\/[\w.-]+)+\.(?:json|pem|key|p12|pfx|crt|cer|txt|env|ya?ml|toml|ini|conf|cfg)$/i.test(v)
  );
}

/** Unquoted values in code that are expressions, not literals (`getToken()`, `userPassword`, `opts.token`, `30`). */
function looksLikeCodeExpression(v: string): boolean {
  if (/[()[\]{}<>]/.test(v)) return true;
  if (/^[-+]?\d+(?:\.\d+)?$/.test(v) || /^0[xob][0-9a-f_]+n?$/i.test(v)) return true;
  // identifiers / member paths without digits: `userPassword`, `opts.token`, `self::KEY` (a random-looking
  // alphabetic run such as `sAqWTbootrdqiD` stays a literal)
  if (
    /^[A-Za-z_$][\w$]*(?:(?:\.|::|->|\?\.)[A-Za-z_$][\w$]*)*[;,]?$/.test(v) &&
    !/\d/.test(v) &&
    (isWordy(v) || /[.:>]/.test(v) || v.length < 8)
  )
    return true;
  if (
    /^(?:this|self|process|os|env|config|settings|options|opts|props|req|request|ctx|context|args|params|window|document|import|new|await|function|lambda)\b/.test(
      v,
    )
  )
    return true;
  return false;
}

/** A pronounceable run of letters: ≥ 4 letters, a vowel at least every 4th letter, at most 5 consonants in a row. */
function isWordLike(run: string): boolean {
  if (run.length < 4) return false;
  const lower = run.toLowerCase();
  let vowels = 0;
  let cluster = 0;
  for (let i = 0; i < lower.length; i++) {
    if ('aeiouy'.includes(lower[i])) {
      vowels++;
      cluster = 0;
    } else if (++cluster > 5) {
      return false;
    }
  }
  return vowels * 4 >= lower.length;
}

/**
 * True when most of the value is made of pronounceable camelCase/snake/UPPER words of 4+ letters
 * (`enableExperimentalTimelineView2`, `__ES6-PROMISIFY--CUSTOM-ARGUMENTS__`): an identifier, not a
 * random token (random base62/base36 strings rarely are).
 */
export function isWordy(value: string): boolean {
  let wordChars = 0;
  for (const m of value.matchAll(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])/g)) if (isWordLike(m[0])) wordChars += m[0].length;
  return wordChars / value.length >= 0.6;
}

const isHex = (v: string): boolean => /^[0-9a-fA-F]+$/.test(v);
const isUuid = (v: string): boolean => /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(v);
const countDigits = (v: string): number => v.replace(/\D/g, '').length;

/**
 * True when a random-looking machine token: at least 12 characters, entropy ≥ 3 bits/char and a digit
 * (or mixed case and at least 20 characters), not made of words. Placeholders never count.
 * `allowWords` skips the words check (for values of keys that can only hold a credential).
 */
export function looksLikeRandomToken(value: string, allowWords = false): boolean {
  const v = value;
  if (v.length < 12 || /\s/.test(v) || isPlaceholderValue(v) || (!allowWords && isWordy(v))) return false;
  const hasDigit = /\d/.test(v);
  const mixed = /[a-z]/.test(v) && /[A-Z]/.test(v);
  return shannonEntropy(v) >= 3 && (hasDigit || (mixed && v.length >= 20));
}

/**
 * Decides whether `value`, assigned to `key` in the given context, is a secret to redact.
 * Rules: the key must be secret-named; placeholders, variable references, URLs (their credential
 * part has its own patterns), paths and values with whitespace never count; then a per-key-strength
 * bar on length, Shannon entropy and character mix (stricter for unquoted code values).
 */
export function assessAssignment(key: string, value: string, ctx: AssignmentContext): boolean {
  const strength = classifyKeyName(key);
  if (strength === 'none') return false;
  const v = value;
  if (v.length === 0 || /\s/.test(v) || v.includes('://')) return false;
  const words = keyWords(key);
  const lastWord = words[words.length - 1] ?? '';
  const compactValue = v.toLowerCase().replace(/[^a-z0-9]/g, '');
  // the value names the key rather than holding a secret: MSI_SECRET: "MSI_SECRET", clientSecret = 'client-secret'
  if (compactValue === words.join('') || (lastWord.length >= 4 && compactValue.includes(lastWord))) return false;
  const literal = ctx.quoted || ctx.style === 'dotenv' || ctx.style === 'field';
  if (!literal && looksLikeCodeExpression(v)) return false;
  if (looksLikePath(v) || isPlaceholderValue(v)) return false;
  const entropy = shannonEntropy(v);
  const hasDigit = /\d/.test(v);
  // separators alone (use-credentials, same_origin, a.b) do not make a word look like a password
  const hasSymbol = /[^A-Za-z0-9._-]/.test(v);
  switch (strength) {
    case 'password':
      if (v.length < 6 || entropy < 2) return false;
      if (ctx.style === 'dotenv' || ctx.style === 'field') return true;
      return hasDigit || hasSymbol;
    case 'token':
      if (!literal) return v.length >= 16 && entropy >= 3.5 && countDigits(v) >= 2 && !isWordy(v);
      // in a .env an API_KEY/…_TOKEN value is a credential even when it happens to read like words
      return looksLikeRandomToken(v, ctx.style === 'dotenv');
    case 'weak':
      if (ctx.style === 'dotenv') return looksLikeRandomToken(v); // AZURE_OPENAI_KEY=<32 hex> in a .env
      if (v.length < 20 || isHex(v) || isUuid(v) || v.includes('.') || v.includes('/') || isWordy(v)) return false;
      return entropy >= 3.5 && hasDigit && /[A-Za-z]/.test(v);
  }
}
