// See package.json: vsce catches this and uses VSCE_PAT or its file store (~/.vsce) instead of the OS keychain.
throw new Error('keytar is not installed (Agent Note replaces it with this stub so that `npm ci` compiles nothing)');
