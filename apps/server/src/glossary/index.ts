export { createGlossaryRepo, type GlossaryRepo } from './repo.js';
export { createGlossarySource, MEMBER_NAMES_LIMIT } from './source.js';
export { glossaryRoutes } from './routes.js';
export { termsFor, EMPTY_GLOSSARY, type RoomGlossary } from './match.js';
