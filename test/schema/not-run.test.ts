// What Strapi would run under src/ and Folio doesn't is listed; the generator's core files are not.
import { describe, expect, it } from 'vitest';
import { describeNotRun, isCoreFactoryFile, notRunFiles } from '../../src/schema/not-run.js';
import { project } from '../config/helpers.js';

const core = (kind: string, uid: string): string =>
  `/**\n * ${kind} for ${uid}\n */\n\nimport { factories } from '@strapi/strapi';\n\nexport default factories.createCore${kind}('${uid}');\n`;

describe('not run by Folio', () => {
  it("the generator's core controller, service and router files are not listed, in either module form", () => {
    expect(isCoreFactoryFile(core('Controller', 'api::article.article'), 'Controller')).toBe(true);
    expect(
      isCoreFactoryFile("'use strict';\n\nconst { createCoreService } = require('@strapi/strapi').factories;\n\nmodule.exports = createCoreService('api::a.a');\n", 'Service'),
    ).toBe(true);
    // options or extra code make it custom
    expect(isCoreFactoryFile("export default factories.createCoreRouter('api::a.a', { config: { find: { auth: false } } });", 'Router')).toBe(false);
    expect(isCoreFactoryFile("export default factories.createCoreController('api::a.a', ({ strapi }) => ({ async find(ctx) { return 1; } }));", 'Controller')).toBe(false);
  });

  it('lists custom code, lifecycles, src/index, middlewares, policies, plugin folders and extension code once each', () => {
    const dir = project({
      'src/index.ts': 'export default { register() {}, bootstrap() {} };',
      'src/api/article/controllers/article.ts': core('Controller', 'api::article.article'),
      'src/api/article/services/article.ts': core('Service', 'api::article.article'),
      'src/api/article/routes/article.ts':
        "import { factories } from '@strapi/strapi';\nexport default factories.createCoreRouter('api::article.article', { config: { find: { auth: false } } });\n",
      'src/api/article/routes/custom.ts': "export default { routes: [{ method: 'GET', path: '/articles/popular', handler: 'article.popular' }] };",
      'src/api/article/content-types/article/schema.json': '{}',
      'src/api/article/content-types/article/lifecycles.ts': 'export default { beforeCreate() {} };',
      'src/api/article/policies/is-owner.ts': 'export default () => true;',
      'src/middlewares/timing.js': 'module.exports = () => async (ctx, next) => next();',
      'src/extensions/users-permissions/strapi-server.ts': 'export default (plugin) => plugin;',
      'src/extensions/users-permissions/content-types/user/schema.json': '{}',
      'src/extensions/i18n/content-types/locale/schema.json': '{}',
      'src/plugins/my-plugin/package.json': '{}',
      'src/plugins/.gitkeep': '',
      'src/plugins/README.md': 'notes',
      'src/admin/app.example.tsx': 'export default {};',
    });
    expect(describeNotRun(notRunFiles(dir))).toEqual([
      'Not run by Folio (see README, "Bringing a Strapi project"):',
      '  src/index.ts: register/bootstrap hooks',
      '  src/api/article/routes/article.ts: custom routes',
      '  src/api/article/routes/custom.ts: custom routes',
      '  src/api/article/policies/is-owner.ts: API policy',
      '  src/api/article/content-types/article/lifecycles.ts: lifecycle hooks',
      '  src/middlewares/timing.js: global middleware',
      '  src/extensions/i18n/content-types/locale/schema.json: extends a type Folio does not have',
      '  src/extensions/users-permissions/strapi-server.ts: plugin customisation',
      '  src/plugins/my-plugin: local plugin',
    ]);
  });

  it('a project with only schema files and core files has nothing to list', () => {
    const dir = project({
      'src/api/tag/routes/tag.js': "'use strict';\nconst { createCoreRouter } = require('@strapi/strapi').factories;\nmodule.exports = createCoreRouter('api::tag.tag');\n",
    });
    expect(describeNotRun(notRunFiles(dir))).toEqual([]);
  });
});
