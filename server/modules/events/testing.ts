/** What tests need of product events beyond the index: the collections. */
export { ProductEventCountModel, ProductEventModel } from './events.model';
/** The members' lists of their events, and the note a batch gets before it is stored. */
export { noteEventsOf, ProductEventListModel } from './events.lists';
