import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, bool, int8, int16, int32, string } from '../../schema/types';

/**
 * DescribeConfigs (key 32), versions 0–3, every non-flexible one (docs/kafka-compat.md §3): kafkajs
 * sends up to v2, librdkafka up to v1, and v4 is the first flexible version. v0 reports
 * `isDefault`; v1 replaces it with `configSource` and adds synonyms; v3 adds each config's type
 * and, when the request asks, its documentation. A null key list asks for every configuration.
 */
export const DescribeConfigs = defineApi({
  apiKey: 32,
  name: 'DescribeConfigs',
  versions: '0-3',
  flexibleVersions: '4+',
  request: {
    resources: field(
      array(
        struct({
          resourceType: field(int8),
          resourceName: field(string),
          configurationKeys: field(array(string), { nullable: '0+' }),
        }),
      ),
    ),
    includeSynonyms: field(bool, { versions: '1+', default: false }),
    includeDocumentation: field(bool, { versions: '3+', default: false }),
  },
  response: {
    throttleTimeMs: field(int32),
    results: field(
      array(
        struct({
          errorCode: field(int16),
          errorMessage: field(string, { nullable: '0+' }),
          resourceType: field(int8),
          resourceName: field(string),
          configs: field(
            array(
              struct({
                name: field(string),
                value: field(string, { nullable: '0+' }),
                readOnly: field(bool),
                isDefault: field(bool, { versions: '0' }),
                configSource: field(int8, { versions: '1+', default: -1 }),
                isSensitive: field(bool),
                synonyms: field(
                  array(
                    struct({
                      name: field(string),
                      value: field(string, { nullable: '0+' }),
                      source: field(int8),
                    }),
                  ),
                  { versions: '1+' },
                ),
                configType: field(int8, { versions: '3+', default: 0 }),
                documentation: field(string, { versions: '3+', nullable: '0+', default: null }),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
