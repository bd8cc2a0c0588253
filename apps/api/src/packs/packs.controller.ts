import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, ErrorBodyDto, type Principal } from '@app/auth';
import { PackService } from '@app/packs';
import {
  CompareQueryDto,
  CreatePackDto,
  ImportPackDto,
  PackComparisonDto,
  PackDto,
  PackExportDto,
  PackListItemDto,
  PackVersionDocumentDto,
  PackVersionDto,
  UpdatePackDto,
} from './packs.dto.js';

const NOT_FOUND = {
  description: "`pack not found` (missing, deleted, or another user's)",
  type: ErrorBodyDto,
};

@ApiTags('packs')
@Controller('api/packs')
export class PacksController {
  constructor(private readonly packs: PackService) {}

  @Get()
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({ summary: 'List your packs, newest first' })
  @ApiOkResponse({ type: [PackListItemDto] })
  list(@CurrentPrincipal() principal: Principal): Promise<PackListItemDto[]> {
    return this.packs.list(principal.userId);
  }

  @Post()
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({ summary: 'Create a pack (draft only; an absent document means no questions)' })
  @ApiCreatedResponse({ type: PackDto })
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreatePackDto): Promise<PackDto> {
    return this.packs.create(principal.userId, body.name, body.document);
  }

  @Post('import')
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({ summary: 'Create a pack from an export (`{name, document}`)' })
  @ApiCreatedResponse({ type: PackDto })
  import(@CurrentPrincipal() principal: Principal, @Body() body: ImportPackDto): Promise<PackDto> {
    return this.packs.create(principal.userId, body.name, body.document);
  }

  @Get(':packId')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({ summary: 'Read a pack: the draft `document` and the published `liveDocument`' })
  @ApiOkResponse({ type: PackDto })
  @ApiNotFoundResponse(NOT_FOUND)
  get(@CurrentPrincipal() principal: Principal, @Param('packId') packId: string): Promise<PackDto> {
    return this.packs.get(principal.userId, packId);
  }

  @Patch(':packId')
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({ summary: 'Edit the name and/or the draft document (the live version never changes here)' })
  @ApiOkResponse({ type: PackDto })
  @ApiNotFoundResponse(NOT_FOUND)
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('packId') packId: string,
    @Body() body: UpdatePackDto,
  ): Promise<PackDto> {
    return this.packs.update(principal.userId, packId, body);
  }

  @Post(':packId/publish')
  @HttpCode(200)
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({
    summary: 'Publish the draft',
    description:
      'Freezes the current draft as the live version (`liveVersionId` becomes the old `draftVersionId`) and opens a new draft version with a new id holding the same document. The draft is validated again first.',
  })
  @ApiOkResponse({ type: PackDto })
  @ApiNotFoundResponse(NOT_FOUND)
  publish(@CurrentPrincipal() principal: Principal, @Param('packId') packId: string): Promise<PackDto> {
    return this.packs.publish(principal.userId, packId);
  }

  @Delete(':packId')
  @HttpCode(204)
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({
    summary: 'Delete a pack: gone for every pack route and for judging; its evaluations stay readable',
  })
  @ApiNoContentResponse()
  @ApiNotFoundResponse(NOT_FOUND)
  delete(@CurrentPrincipal() principal: Principal, @Param('packId') packId: string): Promise<void> {
    return this.packs.delete(principal.userId, packId);
  }

  @Get(':packId/export')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({ summary: 'Export the pack (name and draft document), ready for import' })
  @ApiOkResponse({ type: PackExportDto })
  @ApiNotFoundResponse(NOT_FOUND)
  export(@CurrentPrincipal() principal: Principal, @Param('packId') packId: string): Promise<PackExportDto> {
    return this.packs.export(principal.userId, packId);
  }

  @Get(':packId/versions')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({ summary: 'The versions of a pack, newest first (the draft has `publishedAt` null)' })
  @ApiOkResponse({ type: [PackVersionDto] })
  @ApiNotFoundResponse(NOT_FOUND)
  versions(
    @CurrentPrincipal() principal: Principal,
    @Param('packId') packId: string,
  ): Promise<PackVersionDto[]> {
    return this.packs.versions(principal.userId, packId);
  }

  @Get(':packId/versions/:versionId')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({
    summary: 'One version of a pack with its document (the draft, the live one or an earlier one)',
  })
  @ApiOkResponse({ type: PackVersionDocumentDto })
  @ApiNotFoundResponse({
    description: '`pack not found`, or `version not found` when the id is not a version of this pack',
    type: ErrorBodyDto,
  })
  version(
    @CurrentPrincipal() principal: Principal,
    @Param('packId') packId: string,
    @Param('versionId') versionId: string,
  ): Promise<PackVersionDocumentDto> {
    return this.packs.version(principal.userId, packId, versionId);
  }

  @Get(':packId/compare')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({ summary: 'Compare two versions of this pack by question id' })
  @ApiOkResponse({ type: PackComparisonDto })
  @ApiNotFoundResponse({
    description: '`pack not found`, or `version not found` when `from` or `to` is not a version of this pack',
    type: ErrorBodyDto,
  })
  compare(
    @CurrentPrincipal() principal: Principal,
    @Param('packId') packId: string,
    @Query() query: CompareQueryDto,
  ): Promise<PackComparisonDto> {
    return this.packs.compare(principal.userId, packId, query.from, query.to);
  }
}
