// Document ids: 24 lowercase alphanumerics starting with a letter (cuid2), shared by every row of a document.
import { init } from '@paralleldrive/cuid2';

export const newDocumentId: () => string = init({ length: 24 });
