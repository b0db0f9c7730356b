export {
  createSummaries,
  SUMMARY_NO_CREDITS,
  type Summaries,
  type SummaryDeps,
  type Asker,
} from './summaries.js';
