// Which components a dynamic zone may hold: the ones its schema lists, in the schema's order.
// Strapi 5 accepts any registered component in any zone and then leaves the unlisted ones out of
// every read, so a write it takes silently is lost; Folio refuses such a write instead (README,
// "Differences from Strapi").
import type { DynamicZoneAttribute } from './types.js';

export function zoneComponents(zone: DynamicZoneAttribute): readonly string[] {
  return zone.components;
}
