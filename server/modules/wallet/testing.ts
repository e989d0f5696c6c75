/** For the tests only: the wallet's kept lists, to take a document away or change one and see the check name it. */
export { CashOutListEntryModel } from './cash-outs.lists';
export { CollectionsModel } from './wallet.collections';
