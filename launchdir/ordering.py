"""Wiring of orders: the VAT settings, the payment provider, the checkout and webhook routes, fulfilment.

The `ai_review` product's review is written by the model when
`ANTHROPIC_API_KEY` is set (the rules when it fails), by the rules otherwise.
Stripe is the provider when `STRIPE_SECRET_KEY` is set; otherwise the checkout
runs in test mode (a test payment page, no money moves), which a deployment
marked as production (`LAUNCHDIR_PRODUCTION`) refuses to start with.
"""

from __future__ import annotations

from typing import Any

from aggregates.order import OrderState
from api.app import WebConfig
from api.identity import Identity
from api.services import Services
from api.web_checkout import checkout_routes
from api.webhooks import webhook_routes
from commands.orders import OrderSettings, PaymentProvider
from launchdir.settings import Settings
from workers.adapters.anthropic_api import AnthropicDrafter
from workers.adapters.stripe_api import StripePayments
from workers.adapters.vies import Vies
from workers.fulfilment import Fulfilment
from workers.invoices import Seller, render_invoice
from workers.profile_review import ProfileReviewer


class TestProviderInProduction(RuntimeError):
    """A production deployment without a payment provider."""


def order_settings(settings: Settings) -> OrderSettings:
    """The seller's country, and VIES when `LAUNCHDIR_VIES` is on (at `LAUNCHDIR_VIES_URL`)."""
    vies = Vies(settings.vies_url) if settings.vies else None
    return OrderSettings(seller_country=settings.seller_country, vies=vies)


def payment_provider(settings: Settings) -> PaymentProvider | None:
    """Stripe when configured; None (test mode) otherwise, which production refuses."""
    if settings.stripe_secret_key:
        return StripePayments(settings.stripe_secret_key, settings.stripe_webhook_secret or "",
                              api_base=settings.stripe_api_base, payment_methods=list(settings.payment_methods))
    if settings.production:
        raise TestProviderInProduction("LAUNCHDIR_PRODUCTION is set but no payment provider is configured "
                                       "(STRIPE_SECRET_KEY): refusing to start with the test payment page")
    return None


def profile_reviewer(settings: Settings) -> ProfileReviewer:
    """The `ai_review` writer: the model through the drafter's client when `ANTHROPIC_API_KEY` is set, else rules."""
    if settings.anthropic_api_key:
        return ProfileReviewer(AnthropicDrafter(settings.anthropic_api_key, settings.anthropic_model))
    return ProfileReviewer()


def seller(services: Services, settings: Settings) -> Seller:
    return Seller(name="launchdir", address=services.links["website"], country=settings.seller_country,
                  vat_number="")


def wire_orders(services: Services, settings: Settings, config: WebConfig,
                identity: Identity | None = None) -> Fulfilment:
    """Add the checkout and webhook routes and the fulfilment manager's start and stop to the web app.

    `identity` lets the checkout page's header show who is signed in, as every page does.
    """
    provider = payment_provider(settings)
    fulfilment = Fulfilment(services.store, services.reads, services.clock, reviewer=profile_reviewer(settings),
                            website=services.links["website"])  # the review's mail links to the owner's page
    services.runtime.on_move(fulfilment.on_move)
    me = seller(services, settings)

    def invoice(state: OrderState, names: dict[int, str]) -> bytes:
        return render_invoice(state, me, names)

    routes: list[Any] = checkout_routes(services, provider, invoice, on_paid=fulfilment.wake, identity=identity)
    if provider is not None:
        routes += webhook_routes(services, provider, on_paid=fulfilment.wake)
    config.extra_routes.extend(routes)
    config.on_startup.append(fulfilment.start)
    config.on_shutdown.insert(0, fulfilment.stop)
    return fulfilment
