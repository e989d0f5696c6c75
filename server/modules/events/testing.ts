/** What tests need of product events beyond the index: the collections. */
export { ProductEventCountModel, ProductEventModel } from './events.model';
