/**
 * The Animal Adoption Service as the core calls it: its operations through the profile's
 * governor and one HTTP exchange each, every answer judged against the contract, whether the
 * service is reachable, the request log that Diagnostics shows, one client per profile
 * (profile-clients.ts) and the service's channels (service-channels.ts). Used by app-core.ts.
 */
export { ConnectivityTracker } from './connectivity';
export { DiagnosticsLog } from './diagnostics-log';
export { ProfileClients } from './profile-clients';
export { createServiceClient, type ServiceClientOptions } from './service-client';
export { serviceChannels } from './service-channels';
