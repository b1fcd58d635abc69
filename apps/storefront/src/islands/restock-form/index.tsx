/**
 * Island `restock-form`: makes every restock sign-up block of its section work (for pages that
 * show the product-restock-notification markup without the product-form island).
 * Props: { captcha?, successText? }.
 */
import { useEffect, useRef } from "react";
import type { CaptchaSettings } from "../../lib/captcha.js";
import { enhanceRestockForm } from "./enhance.js";
import "./restock-form.css";

export interface RestockFormProps {
  captcha?: CaptchaSettings | null;
  successText?: string;
}

export default function RestockForm(props: RestockFormProps) {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const host = ref.current?.parentElement;
    const scope = host?.parentElement ?? document.body;
    const undo = [...scope.querySelectorAll<HTMLElement>(".product-restock-notification")].map((el) =>
      enhanceRestockForm(el, props),
    );
    return () => {
      for (const u of undo) u();
    };
  }, [props]);
  return <span ref={ref} hidden />;
}
