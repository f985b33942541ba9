/**
 * The Animal Adoption Service as the core calls it: its operations through the profile's
 * governor and one HTTP exchange each, every answer judged against the contract, whether the
 * service is reachable, and the request log that Diagnostics shows. Used by app-core.ts.
 */
export { ConnectivityTracker } from './connectivity';
export { DiagnosticsLog } from './diagnostics-log';
export { createServiceClient, type ServiceClientOptions } from './service-client';
