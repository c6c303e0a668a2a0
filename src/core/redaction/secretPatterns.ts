// Long file: a table: one entry per credential format (60+), kept in priority order in one list.
/**
 * Built-in credential patterns for secret redaction, in priority order (vendor-specific formats
 * first, context heuristics last). Every regex is global and linear-time: bounded quantifiers, no
 * nested quantifiers over overlapping character classes, and each anchored on something the engine
 * can scan for cheaply (a literal prefix, `://`, or the `:`/`=` of an assignment whose key is then
 * checked by a lookbehind); keyword prefilters skip patterns whose prefix is absent from the text.
 */
import { assessAssignment, classifyKeyName, isPlaceholderValue, isWordy, keyWords, looksLikeRandomToken } from './assessAssignment';
import { shannonEntropy } from './shannonEntropy';

export interface SecretPattern {
  /** Stable id, used in the marker `[REDACTED:<id>]`. Unique within the built-in list. */
  readonly id: string;
  readonly description: string;
  /** Global regex; compiled again by the redactor (flags `g` and `d` added), never mutated here. */
  readonly regex: RegExp;
  /**
   * Capture group(s) holding the secret (index or group name): the first listed group that
   * participated in the match is replaced. 0 or absent: the whole match. The rest of the match
   * (key names, URL parts) is kept.
   */
  readonly secretGroup?: number | string | readonly (number | string)[];
  /** Lower-case substrings; the pattern only runs on texts containing one of them (cheap prefilter). */
  readonly keywords?: readonly string[];
  /** Cheap check on the raw match before the secret is extracted (e.g. "is the key secret-named"); false = skip. */
  readonly precheck?: (match: RegExpExecArray) => boolean;
  /** Extra check on a candidate (entropy, placeholder, key name…); false = not a secret. */
  readonly validate?: (secret: string, match: RegExpExecArray, text: string) => boolean;
  /**
   * The unquoted secret group stops after this many characters (keeps the scan linear); when a
   * candidate reaches it, the redaction extends over the rest of its non-blank run.
   */
  readonly runCap?: number;
  /** Context heuristics (key names, entropy) rather than a credential format; user patterns run before these. */
  readonly heuristic?: boolean;
}

const re = (source: string, flags = ''): RegExp => new RegExp(source, `g${flags}`);

/** No token character before / after (tokens of the `[A-Za-z0-9_-]` alphabet). */
const B = String.raw`(?<![A-Za-z0-9_-])`;
const E = String.raw`(?![A-Za-z0-9_-])`;
/** An optional quote after a key, then an assignment operator, on one line: `"key": `, `KEY=`, `key => `. */
const ASSIGN = String.raw`\\?["'\x60]?[ \t]{0,4}(?::=|=>|={1,3}|:)[ \t]{0,4}\\?["'\x60]?`;
/**
 * An assignment, matched from its operator: `:` `=` `:=` `=>` `==` `: type =`, with the key
 * (group 1) captured by a lookbehind. Consumes the operator and the blanks after it; the value is
 * left to a lookahead so keys inside a value (`cmd: "export TOKEN=…"`) are still visited.
 */
const ASSIGN_AT =
  String.raw`[:=](?<=(?<![A-Za-z0-9_.-])([A-Za-z_][A-Za-z0-9_.-]{0,80})\\?["'\x60]?\]?[ \t]{0,4}[:=])` +
  String.raw`(?:(?<=:)(?:=|[ \t]{0,4}[A-Za-z_][\w.[\]|, ]{0,40}?[ \t]{0,4}=(?!=)|(?!:))|(?<==)(?:>|={1,2})?)[ \t]{0,4}`;
const UUID = String.raw`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`;
const wholeUuid = new RegExp(`^${UUID}$`);

/** A precheck: the character before the match is not one of `chars` (a token boundary, checked outside the regex). */
const notAfter =
  (chars: RegExp) =>
  (m: RegExpExecArray): boolean =>
    m.index === 0 || !chars.test(m.input[m.index - 1]);
const entropyAtLeast =
  (bits: number) =>
  (secret: string): boolean =>
    shannonEntropy(secret) >= bits;
const notPlaceholder = (secret: string): boolean => !isPlaceholderValue(secret);

/** Base64 that decodes to `user:password`. */
function decodesToUserPass(secret: string): boolean {
  try {
    const decoded = atob(secret);
    const colon = decoded.indexOf(':');
    if (colon < 0 || decoded.length < 3) return false;
    for (let i = 0; i < decoded.length; i++) {
      const c = decoded.charCodeAt(i);
      if (c < 0x20 && c !== 0x09) return false;
    }
    return true;
  } catch {
    return false;
  }
}

const webSchemes = /^(?:https?|wss?|ftps?|git|svn|ssh|sftp|rsync|s3)$/i;
const urlPassword = (secret: string): boolean =>
  !isPlaceholderValue(secret) && !/^\d{1,5}$/.test(secret) && !/^x-oauth-basic$/i.test(secret);

/** Last words of key names whose values are random by nature but not secret (hashes, ids, cursors…). */
const hashKeyWord = /^(?:sha\d*|md\d|blake\w*|crc\d*|xxh\w*|murmur\w*|hash\w*|digest\w*|checksum\w*)$/;
const nonSecretKeyWords = new Set([
  'integrity',
  'etag',
  'id',
  'ids',
  'uuid',
  'guid',
  'nonce',
  'commit',
  'rev',
  'revision',
  'version',
  'ref',
  'fingerprint',
  'signature',
  'sig',
  'name',
  'path',
  'file',
  'filename',
  'url',
  'uri',
  'href',
  'src',
  'class',
  'classname',
  'style',
  'color',
  'icon',
  'image',
  'img',
  'data',
  'content',
  'body',
  'text',
  'title',
  'label',
  'message',
  'msg',
  'description',
  'slug',
  'cursor',
  'tag',
  'branch',
  'cid',
  'state',
  'challenge',
  'hint',
  'salt',
  'iv',
  'seed',
  'pattern',
  'regex',
  'selector',
  'locale',
  'alt',
  'blob',
  'tree',
  'sri',
]);

/** `abcde`, `12345`, `VWXYZ`: runs of consecutive characters that random strings practically never contain. */
function hasSequentialRun(v: string, length: number): boolean {
  let run = 1;
  for (let i = 1; i < v.length; i++) {
    run = v.charCodeAt(i) === v.charCodeAt(i - 1) + 1 ? run + 1 : 1;
    if (run >= length) return true;
  }
  return false;
}

/** A random-looking literal: ≥ 24 chars, upper + lower + ≥ 2 digits, near-maximal entropy for its length, not a hash/uuid/integrity string. */
function looksHighEntropy(v: string): boolean {
  if (v.length < 24) return false;
  if (/^[0-9a-fA-F]+$/.test(v) || wholeUuid.test(v)) return false;
  if (/^(?:sha\d+|md5)-/i.test(v) || v.includes('..') || /\.[a-z]{2,4}$/.test(v)) return false;
  // object ids with a type prefix (price_…, cus_…, req_…); credential prefixes have their own patterns
  if (/^[a-z]{2,12}_[A-Za-z0-9]{10,}$/.test(v) || isWordy(v)) return false;
  // base64 JSON (a JWT/JWE header alone), paths, alphabets and counting sequences
  if (v.startsWith('eyJ') || /^[~.]{0,2}\//.test(v) || hasSequentialRun(v, 5)) return false;
  if (!/[a-z]/.test(v) || !/[A-Z]/.test(v) || v.replace(/\D/g, '').length < 2) return false;
  if (isPlaceholderValue(v)) return false;
  const threshold = Math.min(4.3, Math.log2(v.length) - 0.7);
  return shannonEntropy(v) >= threshold;
}

/** The key of an assignment match counts as "dotenv style" (unquoted values are literals). */
function isDotenvStyle(key: string, match: RegExpExecArray, text: string): boolean {
  // `KEY=value`: the key ends right at the match (no quote or blank) and the match is a bare '='
  if (match[0] !== '=' || match.indices?.[1]?.[1] !== match.index) return false;
  if (/^[A-Z][A-Z0-9_]*$/.test(key)) return true;
  if (!/^[a-z][a-z0-9_-]*(?:\.[a-z0-9_-]+)+$/.test(key)) return false;
  const keyStart = match.indices?.[1]?.[0] ?? 0;
  let i = keyStart - 1;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
  return i < 0 || text[i] === '\n' || text[i] === '\r';
}

export const secretPatterns: readonly SecretPattern[] = [
  {
    id: 'gcp-service-account',
    description: 'private_key / private_key_id of a Google Cloud service-account JSON key',
    regex: re(String.raw`\\?"private_key(?:_id)?\\?"[ \t]*:[ \t]*\\?"(-{5}BEGIN[^"]{0,16000}?|[0-9a-f]{40})\\?"`),
    secretGroup: 1,
    keywords: ['private_key'],
  },
  {
    id: 'private-key-block',
    description: 'PEM/OpenSSH/PGP/SSH2 private key block (also a truncated one without its END line)',
    regex: re(
      String.raw`-{4,5} ?BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)? ?-{4,5}` +
        // key material must follow (after blanks / escaped newlines / "Proc-Type: …" header lines):
        // a bare header in code (const HEADER = '-----BEGIN PRIVATE KEY-----') is not a secret
        String.raw`(?=(?:\s|\\[rn]){0,8}(?:[A-Za-z-]{1,40}:[^\n\\]{0,200}(?:\r?\n|\\r\\n|\\n){1,4}){0,4}(?:\s|\\[rn]){0,8}[A-Za-z0-9+/]{16})` +
        // a complete block (the body stops at a quote too, so it never runs past the end of a JSON string) …
        String.raw`(?:[^-"]{0,32768}(?:-[^-"]{1,32768}){0,16}-{4,5} ?END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)? ?-{4,5}` +
        // … or a truncated one: only whole base64 / "Name: value" / blank lines, so the text after it survives
        String.raw`|[ \t]{0,8}[A-Za-z0-9+/=]{0,4096}(?:(?:\r?\n|\\r\\n|\\n)[ \t]{0,8}(?:[A-Za-z0-9+/=]{1,100}|[A-Za-z][A-Za-z-]{0,39}:[^\n\\"]{0,200}|(?=(?:\r?\n|\\r\\n|\\n)[ \t]{0,8}[A-Za-z0-9+/=]{16}))(?=\r?\n|\\[rn]|"|$)){0,400})`,
    ),
    keywords: ['private key'],
  },
  {
    id: 'aws-access-key-id',
    description: 'AWS access key id (AKIA…, ASIA…)',
    regex: re(String.raw`(?<![A-Za-z0-9])((?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z2-7]{16})(?![A-Za-z0-9])`),
    secretGroup: 1,
    keywords: ['akia', 'asia', 'abia', 'acca', 'a3t'],
  },
  {
    id: 'github-token',
    description: 'GitHub token (ghp_/gho_/ghu_/ghs_/ghr_, github_pat_)',
    regex: re(String.raw`(?<![A-Za-z0-9_])((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,255})(?![A-Za-z0-9_])`),
    secretGroup: 1,
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
  },
  {
    id: 'gitlab-token',
    description: 'GitLab token (glpat-, gldt-, glrt-, glptt-, … and runner registration GR1348941…)',
    regex: re(
      B +
        String.raw`((?:glpat|gldt|glrt|glptt|glcbt|gloas|glsoat|glffct|glft|glimt|glagent|glwt)-[A-Za-z0-9_-]{20,300}(?:\.[A-Za-z0-9_-]{2,40}){0,3}|GR1348941[A-Za-z0-9_-]{20,40})` +
        E,
    ),
    secretGroup: 1,
    keywords: [
      'glpat-',
      'gldt-',
      'glrt-',
      'glptt-',
      'glcbt-',
      'gloas-',
      'glsoat-',
      'glffct-',
      'glft-',
      'glimt-',
      'glagent-',
      'glwt-',
      'gr1348941',
    ],
  },
  {
    id: 'slack-token',
    description: 'Slack token (xoxb-, xoxp-, xoxa-, xoxo-, xoxs-, xoxr-, xoxe-, xapp-)',
    regex: re(B + String.raw`((?:xoxe\.)?(?:xox[abposre]|xapp)-[0-9A-Za-z-]{10,250})` + E),
    secretGroup: 1,
    keywords: ['xox', 'xapp-'],
    validate: (s) => s.replace(/\D/g, '').length >= 6,
  },
  {
    id: 'slack-webhook',
    description: 'Slack incoming-webhook / workflow URL (the path after the service name)',
    regex: re(String.raw`hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9+/_-]{20,300})`),
    secretGroup: 1,
    keywords: ['hooks.slack.com'],
  },
  {
    id: 'stripe-key',
    description: 'Stripe secret / restricted key (sk_live_, rk_live_, sk_test_…) and webhook secret (whsec_)',
    regex: re(String.raw`(?<![A-Za-z0-9_])((?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,247}|whsec_[A-Za-z0-9+/=]{24,100})(?![A-Za-z0-9_])`),
    secretGroup: 1,
    keywords: ['sk_live_', 'sk_test_', 'sk_prod_', 'rk_live_', 'rk_test_', 'rk_prod_', 'whsec_'],
  },
  {
    id: 'anthropic-key',
    description: 'Anthropic API / admin key (sk-ant-api03-…, sk-ant-admin01-…)',
    regex: re(B + String.raw`(sk-ant-[a-z]{2,10}\d{0,3}-[A-Za-z0-9_-]{20,250})` + E),
    secretGroup: 1,
    keywords: ['sk-ant-'],
  },
  {
    id: 'openrouter-key',
    description: 'OpenRouter API key (sk-or-v1-…)',
    regex: re(B + String.raw`(sk-or-v1-[a-f0-9]{64})` + E),
    secretGroup: 1,
    keywords: ['sk-or-v1-'],
  },
  {
    id: 'openai-key',
    description: 'OpenAI API key (sk-proj-…, sk-svcacct-…, sk-admin-…, legacy sk-…T3BlbkFJ…, sk- + 32+ alphanumerics)',
    regex: re(
      B +
        String.raw`(sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,250}|sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|sk-[A-Za-z0-9]{32,200})` +
        E,
    ),
    secretGroup: 1,
    keywords: ['sk-'],
    validate: (s) => shannonEntropy(s) >= 3 && /\d/.test(s),
  },
  {
    id: 'google-api-key',
    description: 'Google API key (AIza…)',
    regex: re(B + String.raw`(AIza[0-9A-Za-z_-]{35})` + E),
    secretGroup: 1,
    keywords: ['aiza'],
  },
  {
    id: 'google-oauth-client-secret',
    description: 'Google OAuth client secret (GOCSPX-…)',
    regex: re(B + String.raw`(GOCSPX-[A-Za-z0-9_-]{28})` + E),
    secretGroup: 1,
    keywords: ['gocspx-'],
  },
  {
    id: 'google-oauth-token',
    description: 'Google OAuth access token (ya29.…) or refresh token (1//0…)',
    regex: re(B + String.raw`(ya29\.[0-9A-Za-z_-]{20,2048}|1//0[0-9A-Za-z_-]{40,512})` + E),
    secretGroup: 1,
    keywords: ['ya29.', '1//0'],
  },
  {
    id: 'azure-storage-key',
    description: 'Azure storage / Service Bus key in a connection string (AccountKey=…, SharedAccessKey=…)',
    regex: re(String.raw`\b(?:AccountKey|SharedAccessKey|SharedSecretValue)[ \t]*=[ \t]*([A-Za-z0-9+/]{30,100}={0,2})`),
    secretGroup: 1,
    keywords: ['accountkey', 'sharedaccesskey', 'sharedsecretvalue'],
  },
  {
    id: 'azure-ad-client-secret',
    description: 'Microsoft Entra ID (Azure AD) client secret (xxx8Q~…)',
    regex: re(String.raw`(?<![A-Za-z0-9_~.-])([A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34})(?![A-Za-z0-9_~.-])`),
    secretGroup: 1,
    keywords: ['q~'],
  },
  {
    id: 'twilio-api-key',
    description: 'Twilio API key SID (SK + 32 hex)',
    regex: re(String.raw`(?<![A-Za-z0-9])(SK[0-9a-fA-F]{32})(?![A-Za-z0-9])`),
    secretGroup: 1,
    keywords: ['sk'],
    validate: (s) => /\d/.test(s.slice(2)) && /[a-fA-F]/.test(s.slice(2)),
  },
  {
    id: 'sendgrid-api-key',
    description: 'SendGrid API key (SG.xxx.yyy)',
    regex: re(B + String.raw`(SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,64})` + E),
    secretGroup: 1,
    keywords: ['sg.'],
  },
  {
    id: 'mailgun-api-key',
    description: 'Mailgun API key (key- + 32 hex, or 32hex-8hex-8hex)',
    regex: re(B + String.raw`(key-[0-9a-f]{32}|[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8})` + E),
    secretGroup: 1,
  },
  {
    id: 'npm-token',
    description: 'npm access token (npm_…)',
    regex: re(String.raw`(?<![A-Za-z0-9_])(npm_[A-Za-z0-9]{36})(?![A-Za-z0-9])`),
    secretGroup: 1,
    keywords: ['npm_'],
  },
  {
    id: 'npmrc-auth',
    description: '.npmrc credentials (:_authToken=, :_auth=, :_password=)',
    regex: re(String.raw`:_(?:authToken|auth|password)[ \t]*=[ \t]*"?([^\s"]{6,1000})`),
    secretGroup: 1,
    keywords: [':_auth', ':_password'],
    validate: notPlaceholder,
  },
  {
    id: 'pypi-token',
    description: 'PyPI upload token (pypi-Ag…)',
    regex: re(B + String.raw`(pypi-Ag[A-Za-z0-9_-]{50,500})` + E),
    secretGroup: 1,
    keywords: ['pypi-ag'],
  },
  {
    id: 'huggingface-token',
    description: 'Hugging Face token (hf_…, api_org_…)',
    regex: re(String.raw`(?<![A-Za-z0-9_])((?:hf|api_org)_[A-Za-z0-9]{30,40})(?![A-Za-z0-9_])`),
    secretGroup: 1,
    keywords: ['hf_', 'api_org_'],
    validate: (s) => shannonEntropy(s) >= 3.5 && /[a-z]/.test(s) && /[A-Z]/.test(s),
  },
  {
    id: 'discord-token',
    description: 'Discord bot token (base64 id . timestamp . hmac)',
    regex: re(String.raw`[MNO](?<=(?<![A-Za-z0-9_.-])[MNO])[A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_.-])`),
    validate: entropyAtLeast(3.5),
  },
  {
    id: 'discord-webhook',
    description: 'Discord webhook URL (the token after the webhook id)',
    regex: re(String.raw`discord(?:app)?\.com/api/webhooks/\d{15,22}/([A-Za-z0-9_-]{50,100})`),
    secretGroup: 1,
    keywords: ['discord'],
  },
  {
    id: 'telegram-bot-token',
    description: 'Telegram bot token (digits:AA…)',
    regex: re(String.raw`(\d{5,16}:AA[A-Za-z0-9_-]{31,36})(?![A-Za-z0-9_-])`),
    secretGroup: 1,
    precheck: (m) => m.input.slice(Math.max(0, m.index - 4), m.index) === '/bot' || notAfter(/[A-Za-z0-9_:]/)(m),
    keywords: [':aa'],
  },
  {
    id: 'heroku-api-key',
    description: 'Heroku API key (HRKU-…, or a UUID assigned to a heroku-named key)',
    regex: re(B + String.raw`(?:(HRKU-[A-Za-z0-9_-]{40,80})|heroku[A-Za-z0-9_.-]{0,30}` + ASSIGN + `(${UUID}))` + E, 'i'),
    secretGroup: [1, 2],
    keywords: ['hrku-', 'heroku'],
  },
  {
    id: 'digitalocean-token',
    description: 'DigitalOcean token (dop_v1_, doo_v1_, dor_v1_)',
    regex: re(String.raw`(?<![A-Za-z0-9_])(do[opr]_v1_[a-f0-9]{64})(?![A-Za-z0-9])`),
    secretGroup: 1,
    keywords: ['_v1_'],
  },
  {
    id: 'shopify-token',
    description: 'Shopify access token (shpat_, shpca_, shppa_, shpss_)',
    regex: re(String.raw`(?<![A-Za-z0-9_])(shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})(?![A-Za-z0-9])`),
    secretGroup: 1,
    keywords: ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
  },
  {
    id: 'databricks-token',
    description: 'Databricks personal access token (dapi…)',
    regex: re(String.raw`(?<![A-Za-z0-9_])(dapi[a-f0-9]{32}(?:-\d)?)(?![A-Za-z0-9])`),
    secretGroup: 1,
    keywords: ['dapi'],
  },
  {
    id: 'atlassian-api-token',
    description: 'Atlassian (Jira/Confluence) API token (ATATT3…)',
    regex: re(String.raw`(?<![A-Za-z0-9_-])(ATATT3[A-Za-z0-9_=-]{150,300})(?![A-Za-z0-9_=-])`),
    secretGroup: 1,
    keywords: ['atatt3'],
  },
  {
    id: 'linear-api-key',
    description: 'Linear API key (lin_api_…)',
    regex: re(String.raw`(?<![A-Za-z0-9_])(lin_(?:api|oauth)_[A-Za-z0-9]{40})(?![A-Za-z0-9])`),
    secretGroup: 1,
    keywords: ['lin_api_', 'lin_oauth_'],
  },
  {
    id: 'vault-token',
    description: 'HashiCorp Vault token (hvs., hvb., hvr.)',
    regex: re(String.raw`(?<![A-Za-z0-9_.-])(hv[sbr]\.[A-Za-z0-9_-]{24,300})(?![A-Za-z0-9_-])`),
    secretGroup: 1,
    keywords: ['hvs.', 'hvb.', 'hvr.'],
  },
  {
    id: 'doppler-token',
    description: 'Doppler token (dp.pt., dp.st., dp.sa., …)',
    regex: re(String.raw`(?<![A-Za-z0-9_.-])(dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,50})(?![A-Za-z0-9])`),
    secretGroup: 1,
    keywords: ['dp.'],
  },
  {
    id: 'terraform-cloud-token',
    description: 'Terraform Cloud / Enterprise API token (xxx.atlasv1.yyy)',
    regex: re(String.raw`(?<![A-Za-z0-9])([A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70})(?![A-Za-z0-9_=-])`),
    secretGroup: 1,
    keywords: ['.atlasv1.'],
  },
  {
    id: 'groq-api-key',
    description: 'Groq API key (gsk_…)',
    regex: re(String.raw`(?<![A-Za-z0-9_])(gsk_[A-Za-z0-9]{48,56})(?![A-Za-z0-9])`),
    secretGroup: 1,
    keywords: ['gsk_'],
  },
  {
    id: 'replicate-api-token',
    description: 'Replicate API token (r8_…)',
    regex: re(String.raw`(?<![A-Za-z0-9_])(r8_[A-Za-z0-9]{37})(?![A-Za-z0-9])`),
    secretGroup: 1,
    keywords: ['r8_'],
  },
  {
    id: 'xai-api-key',
    description: 'xAI API key (xai-…)',
    regex: re(B + String.raw`(xai-[A-Za-z0-9]{70,90})(?![A-Za-z0-9])`),
    secretGroup: 1,
    keywords: ['xai-'],
  },
  {
    id: 'perplexity-api-key',
    description: 'Perplexity API key (pplx-…)',
    regex: re(B + String.raw`(pplx-[A-Za-z0-9]{40,56})(?![A-Za-z0-9])`),
    secretGroup: 1,
    keywords: ['pplx-'],
  },
  {
    id: 'square-token',
    description: 'Square access token / OAuth secret (EAAA…, sq0atp-, sq0csp-)',
    regex: re(B + String.raw`(sq0(?:atp|csp)-[0-9A-Za-z_-]{22,43}|EAAA[A-Za-z0-9_-]{60})` + E),
    secretGroup: 1,
    keywords: ['sq0atp-', 'sq0csp-', 'eaaa'],
  },
  {
    id: 'sentry-token',
    description: 'Sentry auth token (sntrys_…, sntryu_…)',
    regex: re(String.raw`(?<![A-Za-z0-9_])(sntry[us]_[A-Za-z0-9+/=_-]{40,400})`),
    secretGroup: 1,
    keywords: ['sntrys_', 'sntryu_'],
  },
  {
    id: 'postman-api-key',
    description: 'Postman API key (PMAK-…)',
    regex: re(B + String.raw`(PMAK-[a-f0-9]{24}-[a-f0-9]{34})` + E),
    secretGroup: 1,
    keywords: ['pmak-'],
  },
  {
    id: 'age-secret-key',
    description: 'age encryption secret key (AGE-SECRET-KEY-1…)',
    regex: re(String.raw`(AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})`),
    secretGroup: 1,
    keywords: ['age-secret-key-1'],
  },
  {
    id: 'newrelic-key',
    description: 'New Relic user API key (NRAK-…)',
    regex: re(B + String.raw`(NRAK-[A-Z0-9]{27})` + E),
    secretGroup: 1,
    keywords: ['nrak-'],
  },
  {
    id: 'mapbox-secret-token',
    description: 'Mapbox secret token (sk.eyJ…)',
    regex: re(B + String.raw`(sk\.eyJ[A-Za-z0-9_-]{20,500}\.[A-Za-z0-9_-]{20,100})` + E),
    secretGroup: 1,
    keywords: ['sk.eyj'],
  },
  {
    id: 'firebase-fcm-server-key',
    description: 'Firebase Cloud Messaging legacy server key (AAAA…:APA91b…)',
    regex: re(B + String.raw`(AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{120,170})` + E),
    secretGroup: 1,
    keywords: ['apa91b'],
  },
  {
    id: 'supabase-token',
    description: 'Supabase access token / secret key (sbp_…, sb_secret_…)',
    regex: re(String.raw`(?<![A-Za-z0-9_])(sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,80})(?![A-Za-z0-9])`),
    secretGroup: 1,
    keywords: ['sbp_', 'sb_secret_'],
  },
  {
    id: 'grafana-token',
    description: 'Grafana service-account token (glsa_…) or cloud token (glc_…)',
    regex: re(String.raw`(?<![A-Za-z0-9_])(glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,400}={0,2})(?![A-Za-z0-9])`),
    secretGroup: 1,
    keywords: ['glsa_', 'glc_'],
  },
  {
    id: 'pulumi-token',
    description: 'Pulumi access token (pul-…)',
    regex: re(B + String.raw`(pul-[a-f0-9]{40})` + E),
    secretGroup: 1,
    keywords: ['pul-'],
  },
  {
    id: 'jwt',
    description: 'JSON Web Token (three base64url segments, header and payload starting eyJ)',
    regex: re(B + String.raw`(eyJ[A-Za-z0-9_-]{5,4000}\.eyJ[A-Za-z0-9_-]{5,16000}\.[A-Za-z0-9_-]{10,4000})` + E),
    secretGroup: 1,
    keywords: ['eyj'],
  },
  {
    id: 'url-token-username',
    description: 'A token used as the user name of a URL (https://<token>@host, https://<token>:x-oauth-basic@host)',
    regex: re(String.raw`:\/\/(?<=(?<![A-Za-z0-9+.-])(?:https?|git|ssh):\/\/)([A-Za-z0-9_.~-]{20,200})(?::x-oauth-basic)?@`, 'i'),
    secretGroup: 1,
    keywords: ['://'],
    validate: (s) => looksLikeRandomToken(s),
  },
  {
    id: 'basic-auth-url',
    description: 'Password in a web URL (https://user:password@host): only the password is redacted',
    regex: re(
      String.raw`:\/\/(?<=(?<![A-Za-z0-9+.-])(?:https?|wss?|ftps?|git|svn|ssh|sftp|rsync|s3):\/\/)[^\s:@/"'<>]{0,200}:([^\s/"'<>]{1,200})@`,
      'i',
    ),
    secretGroup: 1,
    keywords: ['://'],
    validate: urlPassword,
  },
  {
    id: 'connection-string-password',
    description: 'Password in a connection string (postgres://user:password@host, mongodb+srv://, redis://:pw@…): only the password',
    regex: re(String.raw`:\/\/(?<=(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]{1,30}):\/\/)[^\s:@/"'<>]{0,200}:([^\s/"'<>]{1,200})@`),
    secretGroup: 2,
    keywords: ['://'],
    validate: (s, m) => urlPassword(s) && !webSchemes.test(m[1] ?? ''),
  },
  {
    id: 'url-query-secret',
    description: 'Secret-named URL query parameter (?access_token=, &api_key=, &password=, X-Amz-Signature=, sig=)',
    regex: re(
      String.raw`[?&]((?:access|refresh|id|auth|api|session|bearer|private)?[_-]?token|api[_-]?key|apikey|client[_-]?secret|secret|password|passwd|pwd|x-amz-signature|x-amz-security-token|x-goog-signature|sig|signature|key)=([^&#\s"'<>]{6,2000})`,
      'i',
    ),
    secretGroup: 2,
    keywords: ['token=', 'key=', 'secret=', 'password=', 'passwd=', 'pwd=', 'sig=', 'signature='],
    validate: (s, m) => {
      const name = (m[1] ?? '').toLowerCase();
      if (/(?:key|sig|signature)$/.test(name)) return looksLikeRandomToken(s);
      return !isPlaceholderValue(s) && shannonEntropy(s) >= 2.5 && !/^[A-Za-z_$.]+\(?$/.test(s);
    },
  },
  {
    id: 'bearer-token',
    description: 'Bearer token (Authorization: Bearer …, Authorization: Token …)',
    regex: re(
      String.raw`(?:\b[Bb]earer|\bBEARER|\b[Aa]uthorization\\?["'\x60]?[ \t]*[:=][ \t]*\\?["'\x60]?(?:[Tt]oken|TOKEN|ApiKey|SSWS))[ \t]+([A-Za-z0-9\-._~+/]{12,4096}=*)`,
    ),
    secretGroup: 1,
    keywords: ['bearer', 'authorization'],
    validate: (s) => looksLikeRandomToken(s),
  },
  {
    id: 'basic-auth-header',
    description: 'HTTP Basic credentials (Authorization: Basic base64(user:password))',
    regex: re(String.raw`\b[Aa]uthorization\\?["'\x60]?[ \t]*[:=][ \t]*\\?["'\x60]?[Bb]asic[ \t]+([A-Za-z0-9+/]{8,2000}={0,2})`),
    secretGroup: 1,
    keywords: ['basic'],
    validate: decodesToUserPass,
  },
  {
    id: 'curl-user-password',
    description: 'Password in curl -u user:password / --user user:password',
    regex: re(String.raw`\bcurl\b[^\n]{0,300}?[ \t](?:-u|--user)[ \t]*["']?[^\s:"']{1,100}:([^\s"']{1,200})`),
    secretGroup: 1,
    keywords: ['curl'],
    validate: notPlaceholder,
  },
  {
    id: 'netrc-password',
    description: '.netrc entry (machine … login … password …)',
    regex: re(String.raw`\bmachine[ \t]+[^\s]{1,200}[ \t]+login[ \t]+[^\s]{1,200}[ \t]+password[ \t]+([^\s]{1,500})`),
    secretGroup: 1,
    keywords: ['machine'],
    validate: notPlaceholder,
  },
  {
    id: 'auth-tuple-password',
    description: 'Password in a (user, password) pair passed to an auth helper: auth=("user", "pw"), HTTPBasicAuth("user", "pw")',
    regex: re(
      String.raw`\b(?:auth|basic_auth|BasicAuth|HTTPBasicAuth|HTTPDigestAuth|DigestAuth|credentials)[ \t]{0,4}[=(:][ \t]{0,4}[([]?[ \t]{0,4}["']([^"'\n]{1,100})["'][ \t]{0,4},[ \t]{0,4}["']([^"'\n]{1,200})["']`,
    ),
    secretGroup: 2,
    keywords: ['auth', 'credentials'],
    validate: (s) => !/\s/.test(s) && !isPlaceholderValue(s) && shannonEntropy(s) >= 2,
  },
  {
    id: 'cli-short-password-flag',
    description: 'Password after a short -p flag of tools where -p means password (docker/podman/helm login -p X, mysql -pX, sshpass -p X)',
    regex: re(
      String.raw`\b(?:(?:docker|podman|nerdctl|buildah|skopeo|oras|helm(?: registry)?) login|mysql(?:dump|admin|sh|import)?|mariadb(?:-dump)?|sshpass)\b[^\n|;&]{0,200}?[ \t]-p(?:[ \t]+|(?=[^\s-]))["']?([^\s"']{1,200})`,
    ),
    secretGroup: 1,
    keywords: ['login', 'mysql', 'mariadb', 'sshpass'],
    validate: (s) => !isPlaceholderValue(s) && !/^\d{1,5}(?::\d{1,5})?$/.test(s),
  },
  {
    id: 'aws-secret-access-key',
    description: 'AWS secret access key (40 base64 chars assigned to an aws_secret_access_key-like name)',
    regex: re(
      String.raw`(?<![A-Za-z0-9])(?:aws[_.-]?secret(?:[_.-]?access)?(?:[_.-]?key)?|secret[_.-]?access[_.-]?key)\\?["'\x60]?[ \t]{0,4}(?::=|=>|=|:|[ \t])[ \t]{0,4}\\?["'\x60]?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`,
      'i',
    ),
    secretGroup: 1,
    keywords: ['secret'],
    validate: entropyAtLeast(3),
  },
  {
    id: 'cli-secret-argument',
    description: 'Secret-named command-line flag (--password value, --api-key=value, --token "value")',
    regex: re(
      String.raw`-(?<=(?<![A-Za-z0-9_-])-)-?([A-Za-z][A-Za-z0-9-]{1,40})(=|[ \t]+)(?="([^"\\\n]{1,4096})"|'([^'\\\n]{1,4096})'|([^\s"'\x60\\-][^\s"'\x60\\]{0,255}))`,
    ),
    secretGroup: [3, 4, 5],
    runCap: 256,
    heuristic: true,
    precheck: (m) => classifyKeyName(m[1] ?? '') !== 'none',
    validate: (s, m) => assessAssignment(m[1] ?? '', s, { quoted: m[5] === undefined, style: 'flag' }),
  },
  {
    id: 'dotenv-secret',
    description:
      'Value assigned to a secret-named key (KEY/SECRET/TOKEN/PASSWORD/PWD/API_KEY…) in .env, shell, YAML, JSON, properties or code, when it looks like a real secret',
    // separator-first: the engine jumps from one ':'/'=' to the next and checks the key in a lookbehind
    regex: re(
      ASSIGN_AT +
        String.raw`(?=\\?"([^"\\\n]{1,4096})\\?"|\\?'([^'\\\n]{1,4096})\\?'|\x60([^\x60\\\n]{1,4096})\x60|([^\s"'\x60\\]{0,255}[^\s"'\x60\\,;)\]}]))`,
    ),
    secretGroup: [2, 3, 4, 5],
    runCap: 256,
    heuristic: true,
    precheck: (m) => classifyKeyName(m[1] ?? '') !== 'none',
    validate: (s, m, text) => {
      const key = m[1] ?? '';
      const style = isDotenvStyle(key, m, text) ? 'dotenv' : 'code';
      return assessAssignment(key, s, { quoted: m[5] === undefined, style });
    },
  },
  {
    id: 'markup-secret-element',
    description: 'Secret-named XML/HTML element with a secret-looking text (<password>…</password>, <apiKey>…</apiKey>)',
    regex: re(String.raw`<([A-Za-z_][\w.-]{0,60})>([^<>\s]{1,500})</\1>`),
    secretGroup: 2,
    heuristic: true,
    precheck: (m) => classifyKeyName(m[1] ?? '') !== 'none',
    validate: (s, m) => assessAssignment(m[1] ?? '', s, { quoted: true, style: 'field' }),
  },
  {
    id: 'prose-secret',
    description: 'A random-looking token introduced in prose ("my API key is …", "the password was …", "token: …")',
    regex: re(
      String.raw`\b(?:api[ _-]?key|access[ _-]?key|secret(?:[ _-]?key)?|token|password|passwd|passphrase|pat)(?:[ \t]+(?:is|was)|:)[ \t]+["'\x60]?([A-Za-z0-9+/_.~!@#$%^&*=-]{11,511}[A-Za-z0-9+/_~@#$%^&*=-])`,
      'i',
    ),
    secretGroup: 1,
    heuristic: true,
    keywords: ['key', 'secret', 'token', 'pass', 'pat'],
    validate: (s) => looksLikeRandomToken(s) && shannonEntropy(s) >= 3.5 && !/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(s),
  },
  {
    id: 'generic-high-entropy-assigned',
    description: 'High-entropy string literal (≥ 24 chars, mixed case + digits) assigned to any key that does not name a hash/id',
    regex: re(ASSIGN_AT + String.raw`(?=\\?["'\x60]([A-Za-z0-9+/_=.-]{24,1000})\\?["'\x60])`),
    secretGroup: 2,
    heuristic: true,
    validate: (s, m) => {
      const words = keyWords(m[1] ?? '');
      const last = words[words.length - 1];
      if (last === undefined || nonSecretKeyWords.has(last) || hashKeyWord.test(last)) return false;
      if (words.some((w) => w === 'public' || w === 'publishable')) return false;
      return looksHighEntropy(s);
    },
  },
];
