/** GET /api/owner/sites/:siteId/restock: the variants with restock sign-ups waiting. */
export interface SignUpGroup {
  productId: string;
  variantId: string;
  productTitle: string;
  productUrl: string;
  sku: string;
  attributes: Record<string, string>;
  /** Sign-ups waiting for this variant. */
  signUpCount: number;
  qtyInStock: number;
  unlimited: boolean;
  inStock: boolean;
}
