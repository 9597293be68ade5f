import { UserFacingError } from '../base/errors.js';
import { ServiceApiError } from './client.js';

/**
 * Runs one call to the service; a failure becomes "Could not <action>: <what the client says>." so the admin
 * reads what was attempted and what to do. `special` may give a better sentence for a failure it recognises.
 */
export async function callService<T>(
  action: string,
  call: () => Promise<T>,
  special?: (error: ServiceApiError) => string | undefined,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ServiceApiError)) throw error;
    throw new UserFacingError(special?.(error) ?? `Could not ${action}: ${sentence(error.message)}`);
  }
}

/** True when the service's error says the webhook is switched off. */
export function saysDisabled(error: ServiceApiError): boolean {
  return /disabled|switched.?off|inactive/i.test(`${error.code ?? ''} ${error.serviceMessage ?? ''}`);
}

/** Ends the text with a full stop unless it already ends a sentence. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
