// `svc-cli logout`: revokes the CLI credential at the Engine and removes the stored copy.
import { defineCommand } from '../../lib/command.ts';
import { credentialsFile, deleteCredential, engineUrl, isSendableToken, storedCredential } from '../../lib/credentials.ts';
import { engineClient, envelopeOf, notTheEngine, transportError } from '../../lib/engine.ts';
import { CliError } from '../../lib/errors.ts';
import { print } from '../../lib/output.ts';

export const logout = defineCommand({
  command: 'logout',
  describe: 'Revoke the CLI credential and remove it from this machine',
  builder: (y) => y.example('$0 logout', 'sign out of the Engine at SVC_ENGINE_URL'),
  handler: async () => {
    const url = engineUrl();
    const fromEnv = process.env.SVC_CLI_TOKEN?.trim();
    const stored = storedCredential(url);
    const token = fromEnv || stored?.token;
    if (!token) {
      print(`Not logged in to ${url}; nothing to do.`);
      return;
    }
    if (!isSendableToken(token)) {
      throw new CliError(fromEnv ? 'SVC_CLI_TOKEN is malformed (it holds a control character, space or non-ASCII character)' : `the credential stored in ${credentialsFile()} is malformed`, fromEnv ? 'unset it or set it to a valid credential' : `delete ${credentialsFile()} and run \`svc-cli login\` again`);
    }
    let answer;
    try {
      answer = await engineClient(url, token).POST('/v1/auth/logout');
    } catch (err) {
      // Keep the stored credential: it is still valid at the Engine and logout can be retried.
      throw transportError(url, err);
    }
    const status = answer.response.status;
    if (!answer.response.ok && !envelopeOf(answer.error)) throw notTheEngine(url, answer.response, answer.error);
    if (!answer.response.ok && status !== 401) {
      throw new CliError(`the Engine could not revoke the credential (HTTP ${status})`, 'try `svc-cli logout` again');
    }
    const already = status === 401 ? ' (it was already expired or revoked)' : '';
    if (fromEnv) {
      print(`Revoked the credential in SVC_CLI_TOKEN${already}. ${stored ? `The stored credential for ${url} is kept; unset SVC_CLI_TOKEN and run logout again to remove it.` : ''}`.trim());
      return;
    }
    deleteCredential(url);
    print(`Logged out of ${url}: the credential is revoked${already} and removed from ${credentialsFile()}.`);
  },
});
