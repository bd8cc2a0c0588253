import { Injectable } from '@nestjs/common';
import {
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/server';
import type { Principal } from '@app/auth';
import { DomainError, MissingPermissionError } from '@app/domain';
import { PackService } from '@app/packs';

const PACK_URI = /^pack:\/\/([^/?#]{1,200})$/;

export const PACK_RESOURCE_TEMPLATE = {
  uriTemplate: 'pack://{packId}',
  name: 'pack',
  title: 'A published question pack',
  description:
    'The live (published) document of one of your packs: the questions a judgment answers, with their options and review thresholds.',
  mimeType: 'application/json',
};

/**
 * Packs as MCP resources (`pack://{packId}`): the live document judge_ticket judges against, so an
 * assistant can read the questions before it judges. Reading needs packs:read, as GET /api/packs.
 */
@Injectable()
export class McpPackResources {
  constructor(private readonly packs: PackService) {}

  async list(principal: Principal): Promise<Resource[]> {
    this.check(principal);
    const published = (await this.packs.list(principal.userId)).filter((pack) => pack.liveVersionId);
    return published.map((pack) => ({
      uri: `pack://${pack.id}`,
      name: pack.name,
      title: pack.name,
      description: `${pack.questionCount} questions, live version ${pack.liveVersionId}`,
      mimeType: 'application/json',
    }));
  }

  async read(principal: Principal, uri: string): Promise<ReadResourceResult> {
    this.check(principal);
    const packId = PACK_URI.exec(uri)?.[1];
    if (!packId)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown resource ${uri.slice(0, 100)}`);
    try {
      const pack = await this.packs.get(principal.userId, packId);
      if (!pack.liveDocument)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'pack has no published version');
      const body = {
        id: pack.id,
        name: pack.name,
        liveVersionId: pack.liveVersionId,
        document: pack.liveDocument,
      };
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }] };
    } catch (error) {
      if (error instanceof DomainError)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
      throw error;
    }
  }

  private check(principal: Principal): void {
    if (!principal.permissions.includes('packs:read')) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        new MissingPermissionError('packs:read').message,
      );
    }
  }
}
