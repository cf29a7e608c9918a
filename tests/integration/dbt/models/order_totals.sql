-- materialized as a view (dbt's default): lakegate is read-only, so the build must fail with 42501
select region, sum(amount) as total from {{ source('sales', 'orders') }} group by region
