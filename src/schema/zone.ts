// Which components a dynamic zone may hold. Strapi 5 accepts any registered component in any zone
// (its check lists every component uid), and clients such as the shared seed rely on it, so the
// zone's own `components` list is advice for editors, not a constraint on the API.
import type { DynamicZoneAttribute, Model } from './types.js';

export function zoneComponents(model: Model, zone: DynamicZoneAttribute): readonly string[] {
  void zone;
  return [...model.components.keys()];
}
