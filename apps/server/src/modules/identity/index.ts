/**
 * Identity verification: users' requests for the basic and advanced levels, the operators'
 * review, and which features need which level. The module's only public face.
 */
export { identityRoutes } from './routes';
export { IdentityService, maskIdNumber, type IdentityDeps } from './service';
